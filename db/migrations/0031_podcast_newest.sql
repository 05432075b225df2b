-- Episodes are read newest first a page at a time, after the last one shown (docs/decisions/013):
-- (published_at, id) serves that order and replaces the index on published_at alone.
DROP INDEX "podcast_episodes_published_idx";--> statement-breakpoint
CREATE INDEX "podcast_episodes_newest_idx" ON "podcast_episodes" USING btree ("published_at","id");