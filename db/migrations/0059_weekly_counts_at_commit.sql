-- The weekly rollup (weekly_counts, migration 0057) moved at commit, not at each statement. Each
-- reply, discussion and lesson completed took the one row of its metric for the current week when
-- it was written and held it to commit, so in a busy hour every reply waited for the one before it
-- to finish its notifications, mail and push (the bench's busy hour: about one connection of the
-- pool always waiting on that row, readers waiting behind them for a connection). Each statement now
-- notes its counts (weekly_count_changes, keyed by transaction, no lock taken), and one deferred
-- trigger folds the whole transaction's counts into weekly_counts at commit, in the order of metric
-- and week: the row is held for the commit alone. The counts stay exact and transactional (a
-- rolled-back write notes nothing); within the writing transaction itself they show only at commit.
CREATE TABLE "weekly_count_changes" (
  "transaction_id" xid8 DEFAULT pg_current_xact_id() NOT NULL,
  "metric" text NOT NULL,
  "week" date NOT NULL,
  "delta" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "weekly_count_changes_transaction_idx" ON "weekly_count_changes" ("transaction_id");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "count_per_business_week"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format(
      'INSERT INTO weekly_count_changes (metric, week, delta)
         SELECT %L, date_trunc(''week'', %I AT TIME ZONE ''America/New_York'')::date, count(*)::int FROM new_rows GROUP BY 2',
      TG_ARGV[0], TG_ARGV[1]);
  ELSE
    EXECUTE format(
      'INSERT INTO weekly_count_changes (metric, week, delta)
         SELECT %L, date_trunc(''week'', %I AT TIME ZONE ''America/New_York'')::date, -count(*)::int FROM old_rows GROUP BY 2',
      TG_ARGV[0], TG_ARGV[1]);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "fold_weekly_count_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change record;
BEGIN
  -- The first of the transaction's deferred triggers folds all of it; the others find nothing.
  FOR change IN
    WITH taken AS (
      DELETE FROM "weekly_count_changes" WHERE "transaction_id" = pg_current_xact_id() RETURNING "metric", "week", "delta"
    )
    SELECT "metric", "week", sum("delta")::int AS "delta" FROM taken GROUP BY "metric", "week" ORDER BY "metric", "week"
  LOOP
    IF change."delta" > 0 THEN
      INSERT INTO weekly_counts (metric, week, value) VALUES (change."metric", change."week", change."delta")
        ON CONFLICT (metric, week) DO UPDATE SET value = weekly_counts.value + excluded.value;
    ELSIF change."delta" < 0 THEN
      UPDATE weekly_counts SET value = greatest(0, value + change."delta") WHERE metric = change."metric" AND week = change."week";
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "weekly_count_changes_at_commit" AFTER INSERT ON "weekly_count_changes"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "fold_weekly_count_changes"();
