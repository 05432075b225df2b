-- Staff search members and files by any part of a name or an email (trigram indexes below).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX IF EXISTS "community_posts_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "community_reports_open_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "community_posts_author_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "community_replies_post_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "community_replies_author_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "contact_messages_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "uploaded_files_created_idx";--> statement-breakpoint
ALTER TABLE "community_posts" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')) STORED;--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target","id");--> statement-breakpoint
CREATE INDEX "certificates_member_recent_idx" ON "certificates" USING btree ("member_id","issued_at","id");--> statement-breakpoint
CREATE INDEX "community_posts_newest_idx" ON "community_posts" USING btree ("space","created_at","id") WHERE hidden_at is null and pinned_at is null;--> statement-breakpoint
CREATE INDEX "community_posts_pinned_idx" ON "community_posts" USING btree ("space","pinned_at") WHERE hidden_at is null and pinned_at is not null;--> statement-breakpoint
CREATE INDEX "community_posts_top_idx" ON "community_posts" USING btree ("space","likes_count","replies_count","created_at","id") WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "community_posts_staff_idx" ON "community_posts" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "community_posts_search_idx" ON "community_posts" USING gin ("search");--> statement-breakpoint
CREATE INDEX "community_replies_thread_idx" ON "community_replies" USING btree ("post_id","created_at","id") WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "community_reports_queue_idx" ON "community_reports" USING btree ("created_at","id") WHERE resolved_at is null;--> statement-breakpoint
CREATE INDEX "community_reports_post_idx" ON "community_reports" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "community_reports_reply_idx" ON "community_reports" USING btree ("reply_id");--> statement-breakpoint
CREATE INDEX "enrolments_member_recent_idx" ON "enrolments" USING btree ("member_id","enrolled_at","course_id");--> statement-breakpoint
CREATE INDEX "enrolments_course_idx" ON "enrolments" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "enrolments_enrolled_idx" ON "enrolments" USING btree ("enrolled_at");--> statement-breakpoint
CREATE INDEX "members_created_idx" ON "members" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "members_name_trgm_idx" ON "members" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "members_email_trgm_idx" ON "members" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "uploaded_files_filename_trgm_idx" ON "uploaded_files" USING gin (lower("filename") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "community_posts_author_idx" ON "community_posts" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "community_replies_post_idx" ON "community_replies" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "community_replies_author_idx" ON "community_replies" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "contact_messages_created_idx" ON "contact_messages" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "uploaded_files_created_idx" ON "uploaded_files" USING btree ("created_at","id");;--> statement-breakpoint
-- Community changes are counted apart from the catalogue's, so a like or a post makes stale only
-- what shows the community (server/cache/data-version.ts), not every page a visitor may open.
INSERT INTO "data_versions" ("name", "version") VALUES ('community', 1) ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_posts_public_data" ON "community_posts";--> statement-breakpoint
CREATE TRIGGER "community_posts_community_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "community_posts" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('community');
