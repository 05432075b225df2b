CREATE TABLE "recording_captions" (
	"session_id" uuid NOT NULL,
	"language" text NOT NULL,
	"file_id" uuid NOT NULL,
	"cues" jsonb NOT NULL,
	"transcript" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recording_captions_session_id_language_pk" PRIMARY KEY("session_id","language"),
	CONSTRAINT "recording_captions_language_check" CHECK (language in ('en', 'es', 'fr', 'pt', 'zh', 'vi', 'ko', 'tl'))
);
--> statement-breakpoint
ALTER TABLE "recording_captions" ADD CONSTRAINT "recording_captions_session_id_coaching_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."coaching_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_captions" ADD CONSTRAINT "recording_captions_file_id_uploaded_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."uploaded_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recording_captions_file_idx" ON "recording_captions" USING btree ("file_id");--> statement-breakpoint
CREATE TRIGGER "recording_captions_member_keyed_in" AFTER INSERT ON "recording_captions" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "recording_captions_member_keyed_out" AFTER DELETE ON "recording_captions" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
