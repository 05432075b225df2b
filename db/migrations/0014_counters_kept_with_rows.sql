CREATE TABLE "community_counts" (
	"space" text PRIMARY KEY NOT NULL,
	"discussions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "community_counts_space_check" CHECK (space in ('general', 'gold'))
);
--> statement-breakpoint
ALTER TABLE "enrolments" ADD COLUMN "completed_lessons" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The count of a space's visible discussions moves with each statement that adds, deletes, hides or
-- shows discussions, in the same transaction (one update for a whole batch): pages read one row
-- instead of counting 200,000.
CREATE FUNCTION "count_community_posts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "community_counts" ("space", "discussions")
      SELECT "space", count(*)::int FROM new_rows WHERE "hidden_at" IS NULL GROUP BY "space"
      ON CONFLICT ("space") DO UPDATE SET "discussions" = "community_counts"."discussions" + excluded."discussions";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "community_counts" c SET "discussions" = c."discussions" - d.n
      FROM (SELECT "space", count(*)::int AS n FROM old_rows WHERE "hidden_at" IS NULL GROUP BY "space") d
      WHERE c."space" = d."space";
  ELSE
    INSERT INTO "community_counts" ("space", "discussions")
      SELECT "space", sum(n)::int FROM (
        SELECT "space", 1 AS n FROM new_rows WHERE "hidden_at" IS NULL
        UNION ALL SELECT "space", -1 AS n FROM old_rows WHERE "hidden_at" IS NULL
      ) moves GROUP BY "space" HAVING sum(n) <> 0
      ON CONFLICT ("space") DO UPDATE SET "discussions" = "community_counts"."discussions" + excluded."discussions";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "community_posts_counted_in" AFTER INSERT ON "community_posts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_community_posts"();--> statement-breakpoint
CREATE TRIGGER "community_posts_counted_out" AFTER DELETE ON "community_posts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_community_posts"();--> statement-breakpoint
CREATE TRIGGER "community_posts_counted_moved" AFTER UPDATE ON "community_posts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_community_posts"();--> statement-breakpoint
INSERT INTO "community_counts" ("space", "discussions")
  SELECT "space", count(*)::int FROM "community_posts" WHERE "hidden_at" IS NULL GROUP BY "space"
  ON CONFLICT ("space") DO UPDATE SET "discussions" = excluded."discussions";--> statement-breakpoint
-- The lessons each member completed of each course they are enrolled in, moved by every insert and
-- delete of lesson progress (one statement for a whole batch): the staff's course figures read the
-- enrolments alone instead of grouping every progress row.
CREATE FUNCTION "count_completed_lessons"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "enrolments" e SET "completed_lessons" = e."completed_lessons" + d.n
      FROM (SELECT a."member_id", l."course_id", count(*)::int AS n FROM new_rows a JOIN "lessons" l ON l."id" = a."lesson_id" GROUP BY 1, 2) d
      WHERE e."member_id" = d."member_id" AND e."course_id" = d."course_id";
  ELSE
    UPDATE "enrolments" e SET "completed_lessons" = greatest(0, e."completed_lessons" - d.n)
      FROM (SELECT a."member_id", l."course_id", count(*)::int AS n FROM old_rows a JOIN "lessons" l ON l."id" = a."lesson_id" GROUP BY 1, 2) d
      WHERE e."member_id" = d."member_id" AND e."course_id" = d."course_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "lesson_progress_counted_in" AFTER INSERT ON "lesson_progress" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_completed_lessons"();--> statement-breakpoint
CREATE TRIGGER "lesson_progress_counted_out" AFTER DELETE ON "lesson_progress" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_completed_lessons"();--> statement-breakpoint
UPDATE "enrolments" e SET "completed_lessons" = d.n
  FROM (SELECT p."member_id", l."course_id", count(*)::int AS n FROM "lesson_progress" p JOIN "lessons" l ON l."id" = p."lesson_id" GROUP BY 1, 2) d
  WHERE e."member_id" = d."member_id" AND e."course_id" = d."course_id";
