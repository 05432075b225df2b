CREATE TABLE "goal_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"goal_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"logged_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goal_reminders" (
	"goal_id" uuid NOT NULL,
	"local_date" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "goal_reminders_goal_id_local_date_pk" PRIMARY KEY("goal_id","local_date")
);
--> statement-breakpoint
CREATE TABLE "goals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"target" integer NOT NULL,
	"period" text NOT NULL,
	"due_on" date,
	"course_id" text,
	"reminder" text DEFAULT 'off' NOT NULL,
	"reminder_hour" integer DEFAULT 9 NOT NULL,
	"reminder_weekday" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "goals_kind_check" CHECK (kind in ('count', 'course')),
	CONSTRAINT "goals_period_check" CHECK (period in ('week', 'month', 'by_date')),
	CONSTRAINT "goals_reminder_check" CHECK (reminder in ('off', 'daily', 'weekly')),
	CONSTRAINT "goals_hour_check" CHECK (reminder_hour between 0 and 23 and reminder_weekday between 0 and 6)
);
--> statement-breakpoint
ALTER TABLE "goal_entries" ADD CONSTRAINT "goal_entries_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goal_reminders" ADD CONSTRAINT "goal_reminders_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goals" ADD CONSTRAINT "goals_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goals" ADD CONSTRAINT "goals_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "goal_entries_goal_idx" ON "goal_entries" USING btree ("goal_id","logged_on");--> statement-breakpoint
CREATE INDEX "goals_member_idx" ON "goals" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "goals_reminding_idx" ON "goals" USING btree ("id") WHERE reminder <> 'off';--> statement-breakpoint
-- A member's pages (the dashboard's goals) are kept until their data changes.
CREATE TRIGGER "goals_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "goals" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');--> statement-breakpoint
CREATE TRIGGER "goal_entries_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "goal_entries" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');
