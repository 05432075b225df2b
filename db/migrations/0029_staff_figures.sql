CREATE TABLE "member_tier_counts" (
	"tier" text PRIMARY KEY NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "member_tier_counts_tier_check" CHECK (tier in ('free', 'bronze', 'silver', 'gold'))
);
--> statement-breakpoint
CREATE TABLE "weekly_counts" (
	"metric" text NOT NULL,
	"week" date NOT NULL,
	"value" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "weekly_counts_metric_week_pk" PRIMARY KEY("metric","week"),
	CONSTRAINT "weekly_counts_metric_check" CHECK (metric in ('signups', 'enrolments'))
);
--> statement-breakpoint
-- The staff's member figures move with each statement that adds, removes or re-tiers members, or
-- adds or removes enrolments (one update per batch, in the same transaction): the members page reads
-- a handful of rows instead of counting 50,000 members and every enrolment of three months.
CREATE FUNCTION "add_member_counts"(moves jsonb, with_signups boolean) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "member_tier_counts" ("tier", "members")
    SELECT m->>'tier', sum((m->>'n')::int)::int FROM jsonb_array_elements(moves) m GROUP BY 1 HAVING sum((m->>'n')::int) <> 0
    ON CONFLICT ("tier") DO UPDATE SET "members" = greatest(0, "member_tier_counts"."members" + excluded."members");
  INSERT INTO "weekly_counts" ("metric", "week", "value")
    SELECT 'signups', (m->>'week')::date, sum((m->>'n')::int)::int FROM jsonb_array_elements(moves) m
      WHERE with_signups GROUP BY 2 HAVING sum((m->>'n')::int) <> 0
    ON CONFLICT ("metric", "week") DO UPDATE SET "value" = greatest(0, "weekly_counts"."value" + excluded."value");
$$;--> statement-breakpoint
CREATE FUNCTION "count_members"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "add_member_counts"((SELECT coalesce(jsonb_agg(jsonb_build_object('tier', "membership_tier", 'week', date_trunc('week', "created_at" at time zone 'UTC')::date, 'n', 1)), '[]') FROM new_rows), true);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "add_member_counts"((SELECT coalesce(jsonb_agg(jsonb_build_object('tier', "membership_tier", 'week', date_trunc('week', "created_at" at time zone 'UTC')::date, 'n', -1)), '[]') FROM old_rows), true);
  ELSE
    PERFORM "add_member_counts"((SELECT coalesce(jsonb_agg(m), '[]') FROM (
      SELECT jsonb_build_object('tier', "membership_tier", 'n', 1) m FROM new_rows
      UNION ALL SELECT jsonb_build_object('tier', "membership_tier", 'n', -1) FROM old_rows
    ) moves), false);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "members_counted_in" AFTER INSERT ON "members" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_members"();--> statement-breakpoint
CREATE TRIGGER "members_counted_out" AFTER DELETE ON "members" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_members"();--> statement-breakpoint
CREATE TRIGGER "members_counted_moved" AFTER UPDATE ON "members" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_members"();--> statement-breakpoint
CREATE FUNCTION "count_enrolments_per_week"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "weekly_counts" ("metric", "week", "value")
      SELECT 'enrolments', date_trunc('week', "enrolled_at" at time zone 'UTC')::date, count(*)::int FROM new_rows GROUP BY 2
      ON CONFLICT ("metric", "week") DO UPDATE SET "value" = "weekly_counts"."value" + excluded."value";
  ELSE
    UPDATE "weekly_counts" w SET "value" = greatest(0, w."value" - d.n)
      FROM (SELECT date_trunc('week', "enrolled_at" at time zone 'UTC')::date AS week, count(*)::int AS n FROM old_rows GROUP BY 1) d
      WHERE w."metric" = 'enrolments' AND w."week" = d.week;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "enrolments_counted_per_week_in" AFTER INSERT ON "enrolments" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_enrolments_per_week"();--> statement-breakpoint
CREATE TRIGGER "enrolments_counted_per_week_out" AFTER DELETE ON "enrolments" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_enrolments_per_week"();--> statement-breakpoint
INSERT INTO "member_tier_counts" ("tier", "members")
  SELECT "membership_tier", count(*)::int FROM "members" GROUP BY 1;--> statement-breakpoint
INSERT INTO "weekly_counts" ("metric", "week", "value")
  SELECT 'signups', date_trunc('week', "created_at" at time zone 'UTC')::date, count(*)::int FROM "members" GROUP BY 2
  UNION ALL
  SELECT 'enrolments', date_trunc('week', "enrolled_at" at time zone 'UTC')::date, count(*)::int FROM "enrolments" GROUP BY 2;--> statement-breakpoint
-- A reply changes what shows the community (its discussion, the feed's counts), not the catalogue.
DROP TRIGGER IF EXISTS "community_replies_public_data" ON "community_replies";--> statement-breakpoint
CREATE TRIGGER "community_replies_community_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "community_replies" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('community');
