CREATE TABLE "calendar_feeds" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "coaching_attendance" (
	"session_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coaching_attendance_session_id_member_id_pk" PRIMARY KEY("session_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "coaching_reminders" (
	"session_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coaching_reminders_session_id_member_id_kind_starts_at_pk" PRIMARY KEY("session_id","member_id","kind","starts_at"),
	CONSTRAINT "coaching_reminders_kind_check" CHECK (kind in ('day', 'hour'))
);
--> statement-breakpoint
CREATE TABLE "coaching_rsvps" (
	"session_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coaching_rsvps_session_id_member_id_pk" PRIMARY KEY("session_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "coaching_series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"host_staff_id" uuid,
	"host_name" text NOT NULL,
	"time_zone" text NOT NULL,
	"duration_minutes" integer NOT NULL,
	"min_tier" text NOT NULL,
	"capacity" integer NOT NULL,
	"weekly" boolean NOT NULL,
	"join_url" text NOT NULL,
	"ended_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coaching_series_min_tier_check" CHECK (min_tier in ('free', 'bronze', 'silver', 'gold')),
	CONSTRAINT "coaching_series_duration_check" CHECK (duration_minutes between 15 and 480),
	CONSTRAINT "coaching_series_capacity_check" CHECK (capacity between 1 and 10000)
);
--> statement-breakpoint
CREATE TABLE "coaching_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"series_id" uuid NOT NULL,
	"planned_for" timestamp with time zone NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"cancelled_at" timestamp with time zone,
	"revision" integer DEFAULT 0 NOT NULL,
	"recording_file_id" uuid,
	"recording_url" text,
	"notes" text DEFAULT '' NOT NULL,
	"recorded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coaching_sessions_duration_check" CHECK (duration_minutes between 15 and 480)
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "staff_accounts" ADD COLUMN "display_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_attendance" ADD CONSTRAINT "coaching_attendance_session_id_coaching_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."coaching_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_attendance" ADD CONSTRAINT "coaching_attendance_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_reminders" ADD CONSTRAINT "coaching_reminders_session_id_coaching_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."coaching_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_reminders" ADD CONSTRAINT "coaching_reminders_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_rsvps" ADD CONSTRAINT "coaching_rsvps_session_id_coaching_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."coaching_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_rsvps" ADD CONSTRAINT "coaching_rsvps_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_series" ADD CONSTRAINT "coaching_series_host_staff_id_staff_accounts_id_fk" FOREIGN KEY ("host_staff_id") REFERENCES "public"."staff_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_sessions" ADD CONSTRAINT "coaching_sessions_series_id_coaching_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."coaching_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_sessions" ADD CONSTRAINT "coaching_sessions_recording_file_id_uploaded_files_id_fk" FOREIGN KEY ("recording_file_id") REFERENCES "public"."uploaded_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coaching_rsvps_member_idx" ON "coaching_rsvps" USING btree ("member_id","session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "coaching_sessions_slot_idx" ON "coaching_sessions" USING btree ("series_id","planned_for");--> statement-breakpoint
CREATE INDEX "coaching_sessions_start_idx" ON "coaching_sessions" USING btree ("starts_at","id");--> statement-breakpoint
CREATE INDEX "coaching_sessions_recorded_idx" ON "coaching_sessions" USING btree ("starts_at","id") WHERE recorded_at is not null;--> statement-breakpoint
-- A member's pages (the dashboard's next session, /coaching) are kept until their data changes.
CREATE TRIGGER "coaching_series_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "coaching_series" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');--> statement-breakpoint
CREATE TRIGGER "coaching_sessions_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "coaching_sessions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');--> statement-breakpoint
CREATE TRIGGER "coaching_rsvps_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "coaching_rsvps" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');
