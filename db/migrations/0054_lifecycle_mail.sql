CREATE TABLE "lifecycle_automations" (
	"key" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"delay_days" integer NOT NULL,
	"offer_code" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "lifecycle_automations_key_check" CHECK (key in ('welcome', 'welcome-day-2', 'welcome-day-7', 'trial-ending', 'payment-failed', 'plan-ended', 'win-back', 'inactive', 'course-finished'))
);
--> statement-breakpoint
CREATE TABLE "lifecycle_mails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"automation" text NOT NULL,
	"member_id" uuid NOT NULL,
	"occasion" text NOT NULL,
	"subscription_id" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_at" timestamp with time zone,
	CONSTRAINT "lifecycle_mails_automation_check" CHECK (automation in ('welcome', 'welcome-day-2', 'welcome-day-7', 'trial-ending', 'payment-failed', 'plan-ended', 'win-back', 'inactive', 'course-finished'))
);
--> statement-breakpoint
CREATE TABLE "member_last_seen" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"seen_on" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "past_due_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "ended_unpaid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lifecycle_automations" ADD CONSTRAINT "lifecycle_automations_updated_by_staff_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."staff_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lifecycle_mails" ADD CONSTRAINT "lifecycle_mails_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_last_seen" ADD CONSTRAINT "member_last_seen_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lifecycle_mails_once_idx" ON "lifecycle_mails" USING btree ("automation","member_id","occasion");--> statement-breakpoint
CREATE INDEX "lifecycle_mails_sent_idx" ON "lifecycle_mails" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "lifecycle_mails_member_idx" ON "lifecycle_mails" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "member_last_seen_day_idx" ON "member_last_seen" USING btree ("seen_on");--> statement-breakpoint
CREATE INDEX "certificates_issued_idx" ON "certificates" USING btree ("issued_at");--> statement-breakpoint
CREATE INDEX "subscriptions_trial_ending_idx" ON "subscriptions" USING btree ("trial_ends_at") WHERE status = 'trialing';--> statement-breakpoint
CREATE INDEX "subscriptions_past_due_idx" ON "subscriptions" USING btree ("past_due_since") WHERE status = 'past_due';--> statement-breakpoint
CREATE INDEX "subscriptions_ended_unpaid_idx" ON "subscriptions" USING btree ("ended_unpaid_at") WHERE ended_unpaid_at is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_cancelled_idx" ON "subscriptions" USING btree ("ended_at") WHERE status = 'canceled';--> statement-breakpoint
-- A subscription's payment state for lifecycle mail: since when it has been past due (null once paid
-- again), and when it ended while still past due (Stripe's last retry failed).
CREATE FUNCTION "note_payment_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'past_due' THEN
    IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'past_due' OR NEW.past_due_since IS NULL THEN
      NEW.past_due_since := now();
    END IF;
  ELSIF NEW.status IN ('active', 'trialing') THEN
    NEW.past_due_since := NULL;
  ELSIF NEW.status IN ('canceled', 'unpaid', 'incomplete_expired') AND NEW.past_due_since IS NOT NULL THEN
    NEW.ended_unpaid_at := coalesce(NEW.ended_unpaid_at, now());
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "subscriptions_payment_state" BEFORE INSERT OR UPDATE OF status ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "note_payment_state"();
--> statement-breakpoint
UPDATE subscriptions SET past_due_since = updated_at WHERE status = 'past_due';
--> statement-breakpoint
-- The day a member last used the site: on a new session, and when a session's last use moves to a new day.
CREATE FUNCTION "note_last_seen"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_last_seen (member_id, seen_on)
    VALUES (NEW.member_id, (NEW.last_seen_at AT TIME ZONE 'UTC')::date)
    ON CONFLICT (member_id) DO UPDATE SET seen_on = excluded.seen_on WHERE member_last_seen.seen_on < excluded.seen_on;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_last_seen_in" AFTER INSERT ON "sessions"
  FOR EACH ROW WHEN (NEW.member_id IS NOT NULL) EXECUTE FUNCTION "note_last_seen"();
--> statement-breakpoint
CREATE TRIGGER "sessions_last_seen_moved" AFTER UPDATE OF last_seen_at ON "sessions"
  FOR EACH ROW WHEN (NEW.member_id IS NOT NULL
    AND (NEW.last_seen_at AT TIME ZONE 'UTC')::date IS DISTINCT FROM (OLD.last_seen_at AT TIME ZONE 'UTC')::date)
  EXECUTE FUNCTION "note_last_seen"();
--> statement-breakpoint
INSERT INTO member_last_seen (member_id, seen_on)
  SELECT member_id, max((last_seen_at AT TIME ZONE 'UTC')::date) FROM sessions WHERE member_id IS NOT NULL GROUP BY member_id;
