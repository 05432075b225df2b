ALTER TABLE "audit_log" ADD COLUMN "subject_member_id" uuid;--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("subject_member_id");