CREATE TABLE "data_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "data_versions" ("name", "version") VALUES ('public', 1), ('member', 1), ('session', 1) ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- A change raises the version it names (the trigger's argument) in the same transaction, and tells
-- every server process the new number once it commits (server/cache/data-version.ts):
-- 'public' is what visitors see, 'member' what members see of their own, 'session' whether a
-- session or a staff account still stands.
CREATE FUNCTION "bump_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  version_name text := TG_ARGV[0];
  next_version bigint;
BEGIN
  INSERT INTO "data_versions" ("name", "version") VALUES (version_name, 1)
    ON CONFLICT ("name") DO UPDATE SET "version" = "data_versions"."version" + 1
    RETURNING "version" INTO next_version;
  PERFORM pg_notify(version_name || '_data_changed', next_version::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "courses_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "courses" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "lessons_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "lessons" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "podcast_episodes_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "podcast_episodes" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "resources_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "resources" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "community_posts_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "community_posts" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "content_sections_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "content_sections" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "certificates_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "certificates" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "members_public_data" AFTER INSERT OR DELETE OR TRUNCATE ON "members" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "members_name_public_data" AFTER UPDATE OF "name" ON "members" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "enrolments_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "enrolments" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');
--> statement-breakpoint
CREATE TRIGGER "lesson_progress_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "lesson_progress" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');
--> statement-breakpoint
CREATE TRIGGER "certificates_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "certificates" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');
--> statement-breakpoint
CREATE TRIGGER "subscriptions_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "subscriptions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');
--> statement-breakpoint
CREATE TRIGGER "members_member_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "members" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('member');
--> statement-breakpoint
CREATE TRIGGER "sessions_session_data" AFTER UPDATE OF "revoked_at", "expires_at" OR DELETE OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('session');
--> statement-breakpoint
CREATE TRIGGER "staff_accounts_session_data" AFTER UPDATE OR DELETE OR TRUNCATE ON "staff_accounts" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('session');
