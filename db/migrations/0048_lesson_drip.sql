CREATE TABLE "lesson_openings_told" (
	"member_id" uuid NOT NULL,
	"lesson_id" text NOT NULL,
	"told_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_openings_told_member_id_lesson_id_pk" PRIMARY KEY("member_id","lesson_id")
);
--> statement-breakpoint
ALTER TABLE "lessons" ADD COLUMN "opens_after_days" integer;--> statement-breakpoint
ALTER TABLE "lessons" ADD COLUMN "opens_on" date;--> statement-breakpoint
ALTER TABLE "lesson_openings_told" ADD CONSTRAINT "lesson_openings_told_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_openings_told" ADD CONSTRAINT "lesson_openings_told_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lessons_dripped_idx" ON "lessons" USING btree ("course_id") WHERE opens_after_days is not null or opens_on is not null;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_drip_check" CHECK ((opens_after_days is null or opens_on is null) and coalesce(opens_after_days between 1 and 365, true));