CREATE TABLE "lesson_early_openings" (
	"member_id" uuid NOT NULL,
	"lesson_id" text NOT NULL,
	"reason" text NOT NULL,
	"opened_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_early_openings_member_id_lesson_id_pk" PRIMARY KEY("member_id","lesson_id")
);
--> statement-breakpoint
ALTER TABLE "lesson_early_openings" ADD CONSTRAINT "lesson_early_openings_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_early_openings" ADD CONSTRAINT "lesson_early_openings_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_early_openings" ADD CONSTRAINT "lesson_early_openings_opened_by_id_staff_accounts_id_fk" FOREIGN KEY ("opened_by_id") REFERENCES "public"."staff_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE TRIGGER "lesson_early_openings_member_keyed_in" AFTER INSERT ON "lesson_early_openings" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "lesson_early_openings_member_keyed_out" AFTER DELETE ON "lesson_early_openings" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
