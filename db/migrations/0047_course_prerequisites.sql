CREATE TABLE "early_openings" (
	"member_id" uuid NOT NULL,
	"course_id" text NOT NULL,
	"reason" text NOT NULL,
	"opened_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "early_openings_member_id_course_id_pk" PRIMARY KEY("member_id","course_id")
);
--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "prerequisite_course_id" text;--> statement-breakpoint
ALTER TABLE "early_openings" ADD CONSTRAINT "early_openings_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "early_openings" ADD CONSTRAINT "early_openings_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "early_openings" ADD CONSTRAINT "early_openings_opened_by_id_staff_accounts_id_fk" FOREIGN KEY ("opened_by_id") REFERENCES "public"."staff_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_prerequisite_course_id_courses_id_fk" FOREIGN KEY ("prerequisite_course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "courses_prerequisite_idx" ON "courses" USING btree ("prerequisite_course_id") WHERE prerequisite_course_id is not null;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_prerequisite_check" CHECK (prerequisite_course_id <> id);--> statement-breakpoint
CREATE TRIGGER "early_openings_member_keyed_in" AFTER INSERT ON "early_openings" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "early_openings_member_keyed_out" AFTER DELETE ON "early_openings" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
