ALTER TABLE "mrr_changes" ADD COLUMN "offer_id" uuid;--> statement-breakpoint
ALTER TABLE "mrr_changes" ADD COLUMN "team_id" uuid;
--> statement-breakpoint
-- Each change now carries the offer its subscription was bought with (Insights' revenue per offer).
CREATE OR REPLACE FUNCTION "note_mrr_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before integer := 0;
  after integer := 0;
BEGIN
  IF TG_OP <> 'INSERT' THEN before := subscription_mrr(OLD.status, OLD.tier, OLD.period, OLD.amount_cents); END IF;
  IF TG_OP <> 'DELETE' THEN after := subscription_mrr(NEW.status, NEW.tier, NEW.period, NEW.amount_cents); END IF;
  IF before <> after THEN
    IF TG_OP = 'DELETE' THEN
      INSERT INTO mrr_changes (member_id, subscription_id, tier, changed_at, from_cents, to_cents, offer_id)
        VALUES (OLD.member_id, OLD.id, OLD.tier, now(), before, 0, OLD.offer_id);
    ELSE
      -- The mirror's own time of the change (the webhook's), so a month's movements are the month's.
      INSERT INTO mrr_changes (member_id, subscription_id, tier, changed_at, from_cents, to_cents, offer_id)
        VALUES (NEW.member_id, NEW.id, CASE WHEN TG_OP = 'UPDATE' THEN coalesce(NEW.tier, OLD.tier) ELSE NEW.tier END,
          CASE WHEN TG_OP = 'UPDATE' AND NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN now() ELSE NEW.updated_at END,
          before, after, NEW.offer_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A team's seats (decision 020: one Stripe subscription with a quantity, mirrored on `teams`): the
-- seats times the price per seat, paying while active or past due, one stream per team, dated when
-- the mirror changed (teams keep no time of their own).
CREATE FUNCTION "note_team_mrr_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before integer := 0;
  after integer := 0;
BEGIN
  IF TG_OP <> 'INSERT' THEN before := subscription_mrr(OLD.status, OLD.tier, OLD.period, OLD.seats * OLD.price_per_seat_cents); END IF;
  IF TG_OP <> 'DELETE' THEN after := subscription_mrr(NEW.status, NEW.tier, NEW.period, NEW.seats * NEW.price_per_seat_cents); END IF;
  IF before <> after THEN
    IF TG_OP = 'DELETE' THEN
      INSERT INTO mrr_changes (member_id, subscription_id, tier, changed_at, from_cents, to_cents, team_id)
        VALUES (OLD.broker_id, 'team:' || OLD.id, OLD.tier, now(), before, 0, OLD.id);
    ELSE
      INSERT INTO mrr_changes (member_id, subscription_id, tier, changed_at, from_cents, to_cents, team_id)
        VALUES (NEW.broker_id, 'team:' || NEW.id, NEW.tier, now(), before, after, NEW.id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "teams_mrr" AFTER INSERT OR UPDATE OR DELETE ON "teams"
  FOR EACH ROW EXECUTE FUNCTION "note_team_mrr_change"();
--> statement-breakpoint
-- The history so far: each subscription's offer, and teams paying before it began, from their creation.
UPDATE mrr_changes c SET offer_id = s.offer_id FROM subscriptions s WHERE s.id = c.subscription_id AND s.offer_id IS NOT NULL;
--> statement-breakpoint
INSERT INTO mrr_changes (member_id, subscription_id, tier, changed_at, from_cents, to_cents, team_id)
  SELECT broker_id, 'team:' || id, tier, created_at, 0, subscription_mrr(status, tier, period, seats * price_per_seat_cents), id
  FROM teams WHERE subscription_mrr(status, tier, period, seats * price_per_seat_cents) > 0;
