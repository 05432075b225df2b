CREATE TABLE "course_learner_counts" (
	"course_id" text PRIMARY KEY NOT NULL,
	"enrolled" integer DEFAULT 0 NOT NULL,
	"certified" integer DEFAULT 0 NOT NULL,
	"completed_lessons" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_learner_counts" ADD CONSTRAINT "course_learner_counts_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;;--> statement-breakpoint
-- A course's enrolments and the lessons they completed move with each statement that adds, deletes or
-- advances enrolments (one update for a whole batch, in the same transaction).
CREATE FUNCTION "count_course_learners"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "course_learner_counts" ("course_id", "enrolled", "completed_lessons")
      SELECT "course_id", count(*)::int, sum("completed_lessons") FROM new_rows GROUP BY "course_id"
      ON CONFLICT ("course_id") DO UPDATE SET
        "enrolled" = "course_learner_counts"."enrolled" + excluded."enrolled",
        "completed_lessons" = "course_learner_counts"."completed_lessons" + excluded."completed_lessons";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "course_learner_counts" c SET "enrolled" = greatest(0, c."enrolled" - d.n), "completed_lessons" = greatest(0, c."completed_lessons" - d.lessons)
      FROM (SELECT "course_id", count(*)::int AS n, sum("completed_lessons") AS lessons FROM old_rows GROUP BY "course_id") d
      WHERE c."course_id" = d."course_id";
  ELSE
    UPDATE "course_learner_counts" c SET "completed_lessons" = greatest(0, c."completed_lessons" + d.lessons)
      FROM (
        SELECT "course_id", sum(lessons) AS lessons FROM (
          SELECT "course_id", "completed_lessons" AS lessons FROM new_rows
          UNION ALL SELECT "course_id", -"completed_lessons" FROM old_rows
        ) moves GROUP BY "course_id" HAVING sum(lessons) <> 0
      ) d
      WHERE c."course_id" = d."course_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "enrolments_counted_in" AFTER INSERT ON "enrolments" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_course_learners"();--> statement-breakpoint
CREATE TRIGGER "enrolments_counted_out" AFTER DELETE ON "enrolments" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_course_learners"();--> statement-breakpoint
CREATE TRIGGER "enrolments_counted_moved" AFTER UPDATE ON "enrolments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_course_learners"();--> statement-breakpoint
-- Certificates issued per course: the learners who completed it.
CREATE FUNCTION "count_course_certificates"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "course_learner_counts" ("course_id", "certified")
      SELECT "course_id", count(*)::int FROM new_rows GROUP BY "course_id"
      ON CONFLICT ("course_id") DO UPDATE SET "certified" = "course_learner_counts"."certified" + excluded."certified";
  ELSE
    UPDATE "course_learner_counts" c SET "certified" = greatest(0, c."certified" - d.n)
      FROM (SELECT "course_id", count(*)::int AS n FROM old_rows GROUP BY "course_id") d
      WHERE c."course_id" = d."course_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "certificates_counted_in" AFTER INSERT ON "certificates" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_course_certificates"();--> statement-breakpoint
CREATE TRIGGER "certificates_counted_out" AFTER DELETE ON "certificates" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_course_certificates"();--> statement-breakpoint
INSERT INTO "course_learner_counts" ("course_id", "enrolled", "completed_lessons")
  SELECT "course_id", count(*)::int, sum("completed_lessons") FROM "enrolments" GROUP BY "course_id";--> statement-breakpoint
INSERT INTO "course_learner_counts" ("course_id", "certified")
  SELECT "course_id", count(*)::int FROM "certificates" GROUP BY "course_id"
  ON CONFLICT ("course_id") DO UPDATE SET "certified" = excluded."certified";
