ALTER TABLE "lessons" ADD COLUMN "video_file_id" uuid;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "file_id" uuid;--> statement-breakpoint
ALTER TABLE "uploaded_files" ADD COLUMN "access_tier" text;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_video_file_id_uploaded_files_id_fk" FOREIGN KEY ("video_file_id") REFERENCES "public"."uploaded_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_file_id_uploaded_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."uploaded_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploaded_files" DROP COLUMN "url";--> statement-breakpoint
ALTER TABLE "uploaded_files" ADD CONSTRAINT "uploaded_files_access_tier_check" CHECK (access_tier is null or access_tier in ('free', 'bronze', 'silver', 'gold'));--> statement-breakpoint
-- Files uploaded before visibility existed were all public; all but images become members-only
-- (Bronze and above, the plans that include downloads), as new uploads are by default.
UPDATE "uploaded_files" SET "access_tier" = 'bronze' WHERE "folder" <> 'images';
