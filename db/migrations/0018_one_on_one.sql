-- A coach's bookings must not overlap: an exclusion constraint over (coach, time range) needs btree_gist.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE TABLE "coach_days_off" (
	"staff_id" uuid NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "coach_days_off_staff_id_day_pk" PRIMARY KEY("staff_id","day")
);
--> statement-breakpoint
CREATE TABLE "coach_profiles" (
	"staff_id" uuid PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"accepting" boolean DEFAULT false NOT NULL,
	"slot_minutes" integer NOT NULL,
	"min_notice_hours" integer NOT NULL,
	"meeting_url" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coach_profiles_slot_check" CHECK (slot_minutes between 15 and 180),
	CONSTRAINT "coach_profiles_notice_check" CHECK (min_notice_hours between 0 and 336)
);
--> statement-breakpoint
CREATE TABLE "coach_windows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_id" uuid NOT NULL,
	"weekday" integer NOT NULL,
	"starts_minute" integer NOT NULL,
	"ends_minute" integer NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "coach_windows_kind_check" CHECK (kind in ('open', 'break')),
	CONSTRAINT "coach_windows_weekday_check" CHECK (weekday between 0 and 6),
	CONSTRAINT "coach_windows_minutes_check" CHECK (starts_minute >= 0 and ends_minute <= 1440 and starts_minute < ends_minute)
);
--> statement-breakpoint
CREATE TABLE "one_on_one_bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"coach_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"month" date NOT NULL,
	"topic" text DEFAULT '' NOT NULL,
	"cancelled_at" timestamp with time zone,
	"revision" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "one_on_one_bookings_time_check" CHECK (ends_at > starts_at)
);
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "calendar" text;--> statement-breakpoint
ALTER TABLE "coach_days_off" ADD CONSTRAINT "coach_days_off_staff_id_staff_accounts_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coach_profiles" ADD CONSTRAINT "coach_profiles_staff_id_staff_accounts_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coach_windows" ADD CONSTRAINT "coach_windows_staff_id_staff_accounts_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_on_one_bookings" ADD CONSTRAINT "one_on_one_bookings_coach_id_staff_accounts_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."staff_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_on_one_bookings" ADD CONSTRAINT "one_on_one_bookings_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coach_windows_staff_idx" ON "coach_windows" USING btree ("staff_id","weekday");--> statement-breakpoint
CREATE UNIQUE INDEX "one_on_one_bookings_member_month_idx" ON "one_on_one_bookings" USING btree ("member_id","month") WHERE cancelled_at is null;--> statement-breakpoint
CREATE INDEX "one_on_one_bookings_coach_idx" ON "one_on_one_bookings" USING btree ("coach_id","starts_at","id");--> statement-breakpoint
CREATE INDEX "one_on_one_bookings_member_idx" ON "one_on_one_bookings" USING btree ("member_id","starts_at");;--> statement-breakpoint
-- Two live bookings of one coach never overlap, whichever process writes them (Drizzle cannot declare this).
ALTER TABLE "one_on_one_bookings" ADD CONSTRAINT "one_on_one_bookings_no_overlap" EXCLUDE USING gist ("coach_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&) WHERE ("cancelled_at" IS NULL);--> statement-breakpoint
-- A member's pages (the dashboard, /coaching) are kept until their data changes.
CREATE TRIGGER "one_on_one_bookings_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "one_on_one_bookings" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');--> statement-breakpoint
CREATE TRIGGER "coach_profiles_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "coach_profiles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');