DROP INDEX "lifecycle_mails_member_idx";--> statement-breakpoint
CREATE INDEX "lifecycle_mails_member_sent_idx" ON "lifecycle_mails" USING btree ("member_id","sent_at","id");