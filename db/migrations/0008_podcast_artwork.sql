ALTER TABLE "podcast_episodes" ADD COLUMN "thumbnail_file_id" uuid;--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD CONSTRAINT "podcast_episodes_thumbnail_file_id_uploaded_files_id_fk" FOREIGN KEY ("thumbnail_file_id") REFERENCES "public"."uploaded_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Lesson attachments show each file's name and who may open it: a change to a file changes what visitors see.
CREATE TRIGGER "uploaded_files_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "uploaded_files" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
