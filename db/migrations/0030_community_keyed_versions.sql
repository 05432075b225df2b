-- The community's version announces which discussions each change touched ("version:id,id"), so a
-- process makes stale the pages of those discussions and the feed's, not every discussion's
-- (server/cache/data-version.ts). A statement touching more than 100 discussions announces '*'.
CREATE FUNCTION "bump_keyed_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  version_name text := TG_ARGV[0];
  key_column text := TG_ARGV[1];
  next_version bigint;
  key_count integer;
  keys text;
BEGIN
  INSERT INTO "data_versions" ("name", "version") VALUES (version_name, 1)
    ON CONFLICT ("name") DO UPDATE SET "version" = "data_versions"."version" + 1
    RETURNING "version" INTO next_version;
  IF TG_OP = 'TRUNCATE' THEN
    keys := '*';
  ELSE
    EXECUTE format(
      'SELECT count(*), string_agg(k, '','') FROM (SELECT DISTINCT %I::text AS k FROM %I LIMIT 101) s',
      key_column, CASE TG_OP WHEN 'DELETE' THEN 'old_rows' ELSE 'new_rows' END
    ) INTO key_count, keys;
    IF key_count > 100 OR keys IS NULL THEN
      keys := CASE WHEN key_count = 0 THEN '' ELSE '*' END;
    END IF;
  END IF;
  PERFORM pg_notify(version_name || '_data_changed', next_version::text || ':' || keys);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_posts_community_data" ON "community_posts";--> statement-breakpoint
DROP TRIGGER IF EXISTS "community_replies_community_data" ON "community_replies";--> statement-breakpoint
CREATE TRIGGER "community_posts_changed_in" AFTER INSERT ON "community_posts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_keyed_data_version"('community', 'id');--> statement-breakpoint
CREATE TRIGGER "community_posts_changed_moved" AFTER UPDATE ON "community_posts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_keyed_data_version"('community', 'id');--> statement-breakpoint
CREATE TRIGGER "community_posts_changed_out" AFTER DELETE ON "community_posts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_keyed_data_version"('community', 'id');--> statement-breakpoint
CREATE TRIGGER "community_posts_emptied" AFTER TRUNCATE ON "community_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_keyed_data_version"('community', 'id');--> statement-breakpoint
CREATE TRIGGER "community_replies_changed_in" AFTER INSERT ON "community_replies" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_keyed_data_version"('community', 'post_id');--> statement-breakpoint
CREATE TRIGGER "community_replies_changed_moved" AFTER UPDATE ON "community_replies" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_keyed_data_version"('community', 'post_id');--> statement-breakpoint
CREATE TRIGGER "community_replies_changed_out" AFTER DELETE ON "community_replies" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_keyed_data_version"('community', 'post_id');--> statement-breakpoint
CREATE TRIGGER "community_replies_emptied" AFTER TRUNCATE ON "community_replies"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_keyed_data_version"('community', 'post_id');
