import { and, eq, gte, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { weeklyCounts } from '../../db/schema.ts';

/** A figure per week (Monday, YYYY-MM-DD) from this date on, as the triggers of migration 0029 keep it. */
export async function weeklyCountsSince(db: DatabaseOrTransaction, metric: 'signups' | 'enrolments', since: Date) {
  return db
    .select({ week: sql<string>`${weeklyCounts.week}::text`, value: weeklyCounts.value })
    .from(weeklyCounts)
    .where(and(eq(weeklyCounts.metric, metric), gte(weeklyCounts.week, since.toISOString().slice(0, 10))));
}
