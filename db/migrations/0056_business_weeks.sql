-- Weeks are the business's (Mondays in New York, DEFAULT_TIME_ZONE in common/time-zones.ts), like its
-- months: a member's Sunday evening is that week's. Weeks noted before stay as they were (UTC Mondays,
-- the same dates).
CREATE OR REPLACE FUNCTION "note_active_week"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_active_weeks (week, member_id)
    VALUES (date_trunc('week', NEW.last_seen_at AT TIME ZONE 'America/New_York')::date, NEW.member_id)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "sessions_active_week_moved" ON "sessions";
--> statement-breakpoint
CREATE TRIGGER "sessions_active_week_moved" AFTER UPDATE OF last_seen_at ON "sessions"
  FOR EACH ROW WHEN (NEW.member_id IS NOT NULL
    AND date_trunc('week', NEW.last_seen_at AT TIME ZONE 'America/New_York')
      IS DISTINCT FROM date_trunc('week', OLD.last_seen_at AT TIME ZONE 'America/New_York'))
  EXECUTE FUNCTION "note_active_week"();
