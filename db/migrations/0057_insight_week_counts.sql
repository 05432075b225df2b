ALTER TABLE "weekly_counts" DROP CONSTRAINT "weekly_counts_metric_check";--> statement-breakpoint
ALTER TABLE "weekly_counts" ADD CONSTRAINT "weekly_counts_metric_check" CHECK (metric in ('signups', 'enrolments', 'discussions', 'replies', 'lessons_completed'));--> statement-breakpoint
-- Insights' weekly discussions, replies and lessons completed (the business's weeks: Mondays in New
-- York, as migration 0056 keeps active members), moved by each statement that adds or removes rows
-- (TG_ARGV: the metric, the column that dates a row). A statement that changed no row writes nothing.
CREATE FUNCTION "count_per_business_week"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format(
      'INSERT INTO weekly_counts (metric, week, value)
         SELECT %L, date_trunc(''week'', %I AT TIME ZONE ''America/New_York'')::date, count(*)::int FROM new_rows GROUP BY 2
         ON CONFLICT (metric, week) DO UPDATE SET value = weekly_counts.value + excluded.value',
      TG_ARGV[0], TG_ARGV[1]);
  ELSE
    EXECUTE format(
      'UPDATE weekly_counts w SET value = greatest(0, w.value - d.n)
         FROM (SELECT date_trunc(''week'', %I AT TIME ZONE ''America/New_York'')::date AS week, count(*)::int AS n FROM old_rows GROUP BY 1) d
         WHERE w.metric = %L AND w.week = d.week',
      TG_ARGV[1], TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "community_posts_counted_per_week_in" AFTER INSERT ON "community_posts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_per_business_week"('discussions', 'created_at');
--> statement-breakpoint
CREATE TRIGGER "community_posts_counted_per_week_out" AFTER DELETE ON "community_posts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_per_business_week"('discussions', 'created_at');
--> statement-breakpoint
CREATE TRIGGER "community_replies_counted_per_week_in" AFTER INSERT ON "community_replies" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_per_business_week"('replies', 'created_at');
--> statement-breakpoint
CREATE TRIGGER "community_replies_counted_per_week_out" AFTER DELETE ON "community_replies" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_per_business_week"('replies', 'created_at');
--> statement-breakpoint
CREATE TRIGGER "lesson_progress_counted_per_week_in" AFTER INSERT ON "lesson_progress" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_per_business_week"('lessons_completed', 'completed_at');
--> statement-breakpoint
CREATE TRIGGER "lesson_progress_counted_per_week_out" AFTER DELETE ON "lesson_progress" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "count_per_business_week"('lessons_completed', 'completed_at');
--> statement-breakpoint
INSERT INTO weekly_counts (metric, week, value)
  SELECT 'discussions', date_trunc('week', created_at AT TIME ZONE 'America/New_York')::date, count(*)::int FROM community_posts GROUP BY 2
  UNION ALL
  SELECT 'replies', date_trunc('week', created_at AT TIME ZONE 'America/New_York')::date, count(*)::int FROM community_replies GROUP BY 2
  UNION ALL
  SELECT 'lessons_completed', date_trunc('week', completed_at AT TIME ZONE 'America/New_York')::date, count(*)::int FROM lesson_progress GROUP BY 2;
