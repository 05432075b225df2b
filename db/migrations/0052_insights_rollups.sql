CREATE TABLE "member_active_weeks" (
	"week" date NOT NULL,
	"member_id" uuid NOT NULL,
	CONSTRAINT "member_active_weeks_week_member_id_pk" PRIMARY KEY("week","member_id")
);
--> statement-breakpoint
ALTER TABLE "member_active_weeks" ADD CONSTRAINT "member_active_weeks_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_progress_completed_idx" ON "lesson_progress" USING btree ("completed_at");--> statement-breakpoint
-- A member's week of use, once: on a new session and when a session's last use moves into a new week.
CREATE FUNCTION "note_active_week"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_active_weeks (week, member_id)
    VALUES (date_trunc('week', NEW.last_seen_at AT TIME ZONE 'UTC')::date, NEW.member_id)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_active_week_in" AFTER INSERT ON "sessions"
  FOR EACH ROW WHEN (NEW.member_id IS NOT NULL) EXECUTE FUNCTION "note_active_week"();
--> statement-breakpoint
CREATE TRIGGER "sessions_active_week_moved" AFTER UPDATE OF last_seen_at ON "sessions"
  FOR EACH ROW WHEN (NEW.member_id IS NOT NULL
    AND date_trunc('week', NEW.last_seen_at AT TIME ZONE 'UTC') IS DISTINCT FROM date_trunc('week', OLD.last_seen_at AT TIME ZONE 'UTC'))
  EXECUTE FUNCTION "note_active_week"();
--> statement-breakpoint
INSERT INTO member_active_weeks (week, member_id)
  SELECT DISTINCT date_trunc('week', last_seen_at AT TIME ZONE 'UTC')::date, member_id FROM sessions WHERE member_id IS NOT NULL
  ON CONFLICT DO NOTHING;
