-- A member's kept dashboard is kept while the discussions it shows hold (server/cache/own-page-cache.ts),
-- not while nothing at all changes in the community. Two more announcements make that exact:
-- 'feed' (COMMUNITY_LIST_KEY in common/request-context.ts) whenever which discussions the community
-- lists, or how many, changes: a discussion started, deleted, hidden or shown, pinned or unpinned, or
-- moved to another space (a like or a reply changes only that discussion, announced by its id); and a
-- reply, under the member key of the discussion's author, whose 'replies to your posts' it changes.
-- A statement's triggers fire in the order of their names: 'community_replies_to_author_...' comes
-- after 'community_replies_community_...', so a reply takes the community's counter, then the
-- member's, in the order every other community write does (the other order deadlocks with a like).

CREATE TRIGGER "community_posts_list_keyed_in" AFTER INSERT ON "community_posts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT ''feed'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "community_posts_list_keyed_out" AFTER DELETE ON "community_posts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community', 'SELECT ''feed'' FROM %s');
--> statement-breakpoint
CREATE TRIGGER "community_posts_list_keyed_moved" AFTER UPDATE ON "community_posts" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('community',
    'SELECT ''feed'' FROM new_rows AS now JOIN old_rows AS was ON was.id = now.id
      WHERE (now.hidden_at, now.pinned_at, now.space) IS DISTINCT FROM (was.hidden_at, was.pinned_at, was.space)');
--> statement-breakpoint
CREATE TRIGGER "community_replies_to_author_keyed_in" AFTER INSERT ON "community_replies" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member',
    'SELECT post.author_id::text FROM %s JOIN community_posts AS post ON post.id = changed.post_id');
--> statement-breakpoint
CREATE TRIGGER "community_replies_to_author_keyed_moved" AFTER UPDATE ON "community_replies" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member',
    'SELECT post.author_id::text FROM %s JOIN community_posts AS post ON post.id = changed.post_id');
--> statement-breakpoint
CREATE TRIGGER "community_replies_to_author_keyed_out" AFTER DELETE ON "community_replies" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member',
    'SELECT post.author_id::text FROM %s JOIN community_posts AS post ON post.id = changed.post_id');
--> statement-breakpoint
-- Announced at commit, not at each statement: the counter of a kind of data (data_versions) is one
-- row every write of that kind takes, and took it from its statement to its commit, so writes of a
-- kind went one at a time and a like and a reply could deadlock on the two counters. Each statement
-- now notes what it changed (pending_announcements); at commit, one deferred trigger takes the
-- counters in the order of their names, bumps each once with the keys of the whole transaction, and
-- notifies. Versions are still taken under the counter's lock, so in commit order.
CREATE TABLE "pending_announcements" (
  "transaction_id" xid8 DEFAULT pg_current_xact_id() NOT NULL,
  "name" text NOT NULL,
  "keys" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pending_announcements_transaction_idx" ON "pending_announcements" ("transaction_id");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "announce_keyed_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  version_name text := TG_ARGV[0];
  -- A query over the changed rows (%s, aliased "changed"), one key per row.
  key_query text := TG_ARGV[1];
  changed_rows text;
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
  INSERT INTO "pending_announcements" ("name", "keys") VALUES (version_name, keys);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "announce_pending_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pending record;
  next_version bigint;
BEGIN
  -- The first of the transaction's deferred triggers announces all of it; the others find nothing.
  FOR pending IN
    WITH taken AS (
      DELETE FROM "pending_announcements" WHERE "transaction_id" = pg_current_xact_id() RETURNING "name", "keys"
    ), each_key AS (
      SELECT "name", unnest(string_to_array("keys", ',')) AS k FROM taken
    )
    SELECT "name", CASE WHEN bool_or(k = '*') OR count(DISTINCT k) > 100 THEN '*' ELSE string_agg(DISTINCT k, ',') END AS "keys"
    FROM each_key GROUP BY "name" ORDER BY "name"
  LOOP
    INSERT INTO "data_versions" ("name", "version") VALUES (pending."name", 1)
      ON CONFLICT ("name") DO UPDATE SET "version" = "data_versions"."version" + 1
      RETURNING "version" INTO next_version;
    PERFORM pg_notify(pending."name" || '_data_changed', next_version::text || ':' || pending."keys");
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "pending_announcements_at_commit" AFTER INSERT ON "pending_announcements"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "announce_pending_changes"();
