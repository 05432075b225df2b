CREATE TABLE "mrr_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"tier" text,
	"changed_at" timestamp with time zone NOT NULL,
	"from_cents" integer NOT NULL,
	"to_cents" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mrr_changes_changed_idx" ON "mrr_changes" USING btree ("changed_at");--> statement-breakpoint
CREATE INDEX "mrr_changes_member_idx" ON "mrr_changes" USING btree ("member_id","changed_at");--> statement-breakpoint
CREATE INDEX "mrr_changes_subscription_idx" ON "mrr_changes" USING btree ("subscription_id","changed_at","id");--> statement-breakpoint
-- What a subscription brings each month: paying (active, or past due while Stripe retries) on a plan of the site's.
CREATE FUNCTION "subscription_mrr"(status text, tier text, period text, amount integer) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status IN ('active', 'past_due') AND tier IS NOT NULL
    THEN CASE WHEN period = 'yearly' THEN round(amount / 12.0)::integer ELSE amount END
    ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION "note_mrr_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before integer := 0;
  after integer := 0;
BEGIN
  IF TG_OP <> 'INSERT' THEN before := subscription_mrr(OLD.status, OLD.tier, OLD.period, OLD.amount_cents); END IF;
  IF TG_OP <> 'DELETE' THEN after := subscription_mrr(NEW.status, NEW.tier, NEW.period, NEW.amount_cents); END IF;
  IF before <> after THEN
    IF TG_OP = 'DELETE' THEN
      INSERT INTO mrr_changes (member_id, subscription_id, tier, changed_at, from_cents, to_cents)
        VALUES (OLD.member_id, OLD.id, OLD.tier, now(), before, 0);
    ELSE
      -- The mirror's own time of the change (the webhook's), so a month's movements are the month's.
      INSERT INTO mrr_changes (member_id, subscription_id, tier, changed_at, from_cents, to_cents)
        VALUES (NEW.member_id, NEW.id, CASE WHEN TG_OP = 'UPDATE' THEN coalesce(NEW.tier, OLD.tier) ELSE NEW.tier END,
          CASE WHEN TG_OP = 'UPDATE' AND NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN now() ELSE NEW.updated_at END,
          before, after);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "subscriptions_mrr" AFTER INSERT OR UPDATE OR DELETE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "note_mrr_change"();
--> statement-breakpoint
-- Subscriptions paying before this history began: from when they started.
INSERT INTO mrr_changes (member_id, subscription_id, tier, changed_at, from_cents, to_cents)
  SELECT member_id, id, tier, started_at, 0, subscription_mrr(status, tier, period, amount_cents)
  FROM subscriptions WHERE subscription_mrr(status, tier, period, amount_cents) > 0;
