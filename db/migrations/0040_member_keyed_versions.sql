-- What a member sees of their own is versioned per member (server/cache/data-version.ts, keyed):
-- each change to a member's enrolments, progress, certificates, plan, account, RSVPs, 1-on-1s, goals
-- and notifications announces "version:member_id,...", so it makes stale that member's kept pages,
-- sessions and reads only. What every member sees (a coaching session, a coach) announces '*'.
-- A statement that changed no row announces nothing and moves no version (transition tables), for
-- the member's data and the community's alike.
CREATE FUNCTION "announce_keyed_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  version_name text := TG_ARGV[0];
  -- A query over the changed rows (%s, aliased "changed"), one key per row.
  key_query text := TG_ARGV[1];
  changed_rows text;
  next_version bigint;
  key_count integer;
  keys text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    keys := '*';
  ELSE
    changed_rows := CASE TG_OP
      WHEN 'INSERT' THEN 'new_rows AS changed'
      WHEN 'DELETE' THEN 'old_rows AS changed'
      ELSE '(SELECT * FROM new_rows UNION ALL SELECT * FROM old_rows) AS changed'
    END;
    EXECUTE 'SELECT count(*), string_agg(k, '','') FROM (SELECT DISTINCT k FROM (' || format(key_query, changed_rows)
      || ') AS keyed(k) WHERE k IS NOT NULL LIMIT 101) AS distinct_keys'
      INTO key_count, keys;
    IF key_count = 0 THEN
      RETURN NULL;
    END IF;
    IF key_count > 100 THEN
      keys := '*';
    END IF;
  END IF;
  INSERT INTO "data_versions" ("name", "version") VALUES (version_name, 1)
    ON CONFLICT ("name") DO UPDATE SET "version" = "data_versions"."version" + 1
    RETURNING "version" INTO next_version;
  PERFORM pg_notify(version_name || '_data_changed', next_version::text || ':' || keys);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "enrolments_member_data" ON "enrolments";
--> statement-breakpoint
CREATE TRIGGER "enrolments_member_keyed_in" AFTER INSERT ON "enrolments" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "enrolments_member_keyed_moved" AFTER UPDATE ON "enrolments" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "enrolments_member_keyed_out" AFTER DELETE ON "enrolments" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "enrolments_member_keyed_emptied" AFTER TRUNCATE ON "enrolments"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "lesson_progress_member_data" ON "lesson_progress";
--> statement-breakpoint
CREATE TRIGGER "lesson_progress_member_keyed_in" AFTER INSERT ON "lesson_progress" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "lesson_progress_member_keyed_moved" AFTER UPDATE ON "lesson_progress" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "lesson_progress_member_keyed_out" AFTER DELETE ON "lesson_progress" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "lesson_progress_member_keyed_emptied" AFTER TRUNCATE ON "lesson_progress"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "certificates_member_data" ON "certificates";
--> statement-breakpoint
CREATE TRIGGER "certificates_member_keyed_in" AFTER INSERT ON "certificates" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "certificates_member_keyed_moved" AFTER UPDATE ON "certificates" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "certificates_member_keyed_out" AFTER DELETE ON "certificates" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "certificates_member_keyed_emptied" AFTER TRUNCATE ON "certificates"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "subscriptions_member_data" ON "subscriptions";
--> statement-breakpoint
CREATE TRIGGER "subscriptions_member_keyed_in" AFTER INSERT ON "subscriptions" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "subscriptions_member_keyed_moved" AFTER UPDATE ON "subscriptions" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "subscriptions_member_keyed_out" AFTER DELETE ON "subscriptions" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "subscriptions_member_keyed_emptied" AFTER TRUNCATE ON "subscriptions"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "members_member_data" ON "members";
--> statement-breakpoint
CREATE TRIGGER "members_member_keyed_in" AFTER INSERT ON "members" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "members_member_keyed_moved" AFTER UPDATE ON "members" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "members_member_keyed_out" AFTER DELETE ON "members" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "members_member_keyed_emptied" AFTER TRUNCATE ON "members"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "coaching_rsvps_member_data" ON "coaching_rsvps";
--> statement-breakpoint
CREATE TRIGGER "coaching_rsvps_member_keyed_in" AFTER INSERT ON "coaching_rsvps" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coaching_rsvps_member_keyed_moved" AFTER UPDATE ON "coaching_rsvps" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coaching_rsvps_member_keyed_out" AFTER DELETE ON "coaching_rsvps" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coaching_rsvps_member_keyed_emptied" AFTER TRUNCATE ON "coaching_rsvps"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "one_on_one_bookings_member_data" ON "one_on_one_bookings";
--> statement-breakpoint
CREATE TRIGGER "one_on_one_bookings_member_keyed_in" AFTER INSERT ON "one_on_one_bookings" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "one_on_one_bookings_member_keyed_moved" AFTER UPDATE ON "one_on_one_bookings" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "one_on_one_bookings_member_keyed_out" AFTER DELETE ON "one_on_one_bookings" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "one_on_one_bookings_member_keyed_emptied" AFTER TRUNCATE ON "one_on_one_bookings"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "goals_member_data" ON "goals";
--> statement-breakpoint
CREATE TRIGGER "goals_member_keyed_in" AFTER INSERT ON "goals" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "goals_member_keyed_moved" AFTER UPDATE ON "goals" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "goals_member_keyed_out" AFTER DELETE ON "goals" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "goals_member_keyed_emptied" AFTER TRUNCATE ON "goals"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "goal_entries_member_data" ON "goal_entries";
--> statement-breakpoint
CREATE TRIGGER "goal_entries_member_keyed_in" AFTER INSERT ON "goal_entries" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT goals.member_id::text FROM %s JOIN goals ON goals.id = changed.goal_id');
--> statement-breakpoint
CREATE TRIGGER "goal_entries_member_keyed_moved" AFTER UPDATE ON "goal_entries" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT goals.member_id::text FROM %s JOIN goals ON goals.id = changed.goal_id');
--> statement-breakpoint
CREATE TRIGGER "goal_entries_member_keyed_out" AFTER DELETE ON "goal_entries" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT goals.member_id::text FROM %s JOIN goals ON goals.id = changed.goal_id');
--> statement-breakpoint
CREATE TRIGGER "goal_entries_member_keyed_emptied" AFTER TRUNCATE ON "goal_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT goals.member_id::text FROM %s JOIN goals ON goals.id = changed.goal_id');
--> statement-breakpoint
CREATE TRIGGER "notifications_member_keyed_in" AFTER INSERT ON "notifications" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "notifications_member_keyed_moved" AFTER UPDATE ON "notifications" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "notifications_member_keyed_out" AFTER DELETE ON "notifications" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "notifications_member_keyed_emptied" AFTER TRUNCATE ON "notifications"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "coaching_series_member_data" ON "coaching_series";
--> statement-breakpoint
CREATE TRIGGER "coaching_series_member_keyed_in" AFTER INSERT ON "coaching_series" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coaching_series_member_keyed_moved" AFTER UPDATE ON "coaching_series" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coaching_series_member_keyed_out" AFTER DELETE ON "coaching_series" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coaching_series_member_keyed_emptied" AFTER TRUNCATE ON "coaching_series"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "coaching_sessions_member_data" ON "coaching_sessions";
--> statement-breakpoint
CREATE TRIGGER "coaching_sessions_member_keyed_in" AFTER INSERT ON "coaching_sessions" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coaching_sessions_member_keyed_moved" AFTER UPDATE ON "coaching_sessions" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coaching_sessions_member_keyed_out" AFTER DELETE ON "coaching_sessions" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coaching_sessions_member_keyed_emptied" AFTER TRUNCATE ON "coaching_sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "coach_profiles_member_data" ON "coach_profiles";
--> statement-breakpoint
CREATE TRIGGER "coach_profiles_member_keyed_in" AFTER INSERT ON "coach_profiles" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coach_profiles_member_keyed_moved" AFTER UPDATE ON "coach_profiles" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coach_profiles_member_keyed_out" AFTER DELETE ON "coach_profiles" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "coach_profiles_member_keyed_emptied" AFTER TRUNCATE ON "coach_profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT ''*'' FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_posts_changed_in" ON "community_posts";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_posts_changed_moved" ON "community_posts";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_posts_changed_out" ON "community_posts";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_posts_emptied" ON "community_posts";
--> statement-breakpoint
CREATE TRIGGER "community_posts_community_keyed_in" AFTER INSERT ON "community_posts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT changed.id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "community_posts_community_keyed_moved" AFTER UPDATE ON "community_posts" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT changed.id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "community_posts_community_keyed_out" AFTER DELETE ON "community_posts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT changed.id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "community_posts_community_keyed_emptied" AFTER TRUNCATE ON "community_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT changed.id::text FROM %s');
--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_replies_changed_in" ON "community_replies";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_replies_changed_moved" ON "community_replies";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_replies_changed_out" ON "community_replies";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_replies_emptied" ON "community_replies";
--> statement-breakpoint
CREATE TRIGGER "community_replies_community_keyed_in" AFTER INSERT ON "community_replies" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT changed.post_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "community_replies_community_keyed_moved" AFTER UPDATE ON "community_replies" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT changed.post_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "community_replies_community_keyed_out" AFTER DELETE ON "community_replies" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT changed.post_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "community_replies_community_keyed_emptied" AFTER TRUNCATE ON "community_replies"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT changed.post_id::text FROM %s');
--> statement-breakpoint
DROP FUNCTION IF EXISTS "bump_keyed_data_version"();
