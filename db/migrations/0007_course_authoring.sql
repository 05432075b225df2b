CREATE TABLE "lesson_attachments" (
	"lesson_id" text NOT NULL,
	"file_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "lesson_attachments_lesson_id_file_id_pk" PRIMARY KEY("lesson_id","file_id")
);
--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "level" text DEFAULT 'beginner' NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "certificate" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "thumbnail_file_id" uuid;--> statement-breakpoint
ALTER TABLE "lessons" ADD COLUMN "free_preview" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lesson_attachments" ADD CONSTRAINT "lesson_attachments_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_attachments" ADD CONSTRAINT "lesson_attachments_file_id_uploaded_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."uploaded_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_attachments_file_idx" ON "lesson_attachments" USING btree ("file_id");--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_thumbnail_file_id_uploaded_files_id_fk" FOREIGN KEY ("thumbnail_file_id") REFERENCES "public"."uploaded_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_level_check" CHECK (level in ('beginner', 'intermediate', 'advanced'));--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_status_check" CHECK (status in ('draft', 'published', 'archived'));--> statement-breakpoint
-- What visitors see of a lesson changes with its attachments too.
CREATE TRIGGER "lesson_attachments_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "lesson_attachments" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
