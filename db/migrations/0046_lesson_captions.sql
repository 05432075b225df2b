CREATE TABLE "lesson_captions" (
	"lesson_id" text NOT NULL,
	"language" text NOT NULL,
	"file_id" uuid NOT NULL,
	"cues" jsonb NOT NULL,
	"transcript" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_captions_lesson_id_language_pk" PRIMARY KEY("lesson_id","language"),
	CONSTRAINT "lesson_captions_language_check" CHECK (language in ('en', 'es', 'fr', 'pt', 'zh', 'vi', 'ko', 'tl'))
);
--> statement-breakpoint
ALTER TABLE "lesson_captions" ADD CONSTRAINT "lesson_captions_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_captions" ADD CONSTRAINT "lesson_captions_file_id_uploaded_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."uploaded_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_captions_file_idx" ON "lesson_captions" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "lesson_captions_search_idx" ON "lesson_captions" USING gin (to_tsvector('english', "transcript"));--> statement-breakpoint
CREATE TRIGGER "lesson_captions_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "lesson_captions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
