import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_TIME_ZONE } from '../../common/time-zones.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { enrolments, goalEntries, goalReminders, goals, lessonProgress, lessons, members } from '../../db/schema.ts';

// Goals' tables. A member has a handful of goals, so their progress is read for all of them at once:
// sums per period from the logged entries, and the days with progress for the streak.

export type GoalRow = typeof goals.$inferSelect;

/** Where each goal stands: its sums this week, this month and in all, and the dates with progress lately. */
export interface GoalProgressRows {
  sums: Map<string, { week: number; month: number; total: number }>;
  days: Map<string, string[]>;
}

export function createGoalsRepository(db: DatabaseOrTransaction) {
  return {
    async listOf(memberId: string, limit: number): Promise<GoalRow[]> {
      return db.select().from(goals).where(eq(goals.memberId, memberId)).orderBy(asc(goals.createdAt), asc(goals.id)).limit(limit);
    },

    async countOf(memberId: string): Promise<number> {
      const [row] = await db.select({ count: count() }).from(goals).where(eq(goals.memberId, memberId));
      return row?.count ?? 0;
    },

    async find(goalId: string): Promise<GoalRow | null> {
      const [row] = await db.select().from(goals).where(eq(goals.id, goalId));
      return row ?? null;
    },

    async insert(values: typeof goals.$inferInsert): Promise<string> {
      const [row] = await db.insert(goals).values(values).returning({ id: goals.id });
      return row!.id;
    },

    async setReminder(goalId: string, reminder: Pick<GoalRow, 'reminder' | 'reminderHour' | 'reminderWeekday'>): Promise<void> {
      await db.update(goals).set(reminder).where(eq(goals.id, goalId));
    },

    async remove(goalId: string): Promise<void> {
      await db.delete(goals).where(eq(goals.id, goalId));
    },

    /** Every progress log of the member's goals, oldest first, after `after`: their data, for 'Download my data'. */
    async entriesOf(memberId: string, limit: number, after?: { createdAt: string; id: string }) {
      return db
        .select({
          id: goalEntries.id,
          goalId: goalEntries.goalId,
          amount: goalEntries.amount,
          loggedOn: goalEntries.loggedOn,
          createdAt: goalEntries.createdAt,
          createdKey: sql<string>`${goalEntries.createdAt}::text`,
        })
        .from(goalEntries)
        .innerJoin(goals, eq(goals.id, goalEntries.goalId))
        .where(
          and(
            eq(goals.memberId, memberId),
            after ? sql`(${goalEntries.createdAt}, ${goalEntries.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : undefined,
          ),
        )
        .orderBy(asc(goalEntries.createdAt), asc(goalEntries.id))
        .limit(limit);
    },

    async addEntry(goalId: string, amount: number, loggedOn: string): Promise<void> {
      await db.insert(goalEntries).values({ goalId, amount, loggedOn });
    },

    /** Count goals' sums from these dates on (the week's and the month's first days), and their recent days with progress. */
    async countProgress(goalIds: string[], since: { week: string; month: string; streakFrom: string }): Promise<GoalProgressRows> {
      const sums = new Map<string, { week: number; month: number; total: number }>();
      const days = new Map<string, string[]>();
      if (goalIds.length === 0) return { sums, days };
      const [sumRows, dayRows] = await Promise.all([
        db
          .select({
            goalId: goalEntries.goalId,
            week: sql<number>`coalesce(sum(${goalEntries.amount}) filter (where ${goalEntries.loggedOn} >= ${since.week}), 0)::int`,
            month: sql<number>`coalesce(sum(${goalEntries.amount}) filter (where ${goalEntries.loggedOn} >= ${since.month}), 0)::int`,
            total: sql<number>`coalesce(sum(${goalEntries.amount}), 0)::int`,
          })
          .from(goalEntries)
          .where(inArray(goalEntries.goalId, goalIds))
          .groupBy(goalEntries.goalId),
        db
          .select({ goalId: goalEntries.goalId, day: goalEntries.loggedOn })
          .from(goalEntries)
          .where(and(inArray(goalEntries.goalId, goalIds), sql`${goalEntries.loggedOn} >= ${since.streakFrom}`))
          .groupBy(goalEntries.goalId, goalEntries.loggedOn)
          .having(sql`sum(${goalEntries.amount}) > 0`),
      ]);
      for (const row of sumRows) sums.set(row.goalId, row);
      for (const row of dayRows) days.set(row.goalId, [...(days.get(row.goalId) ?? []), row.day]);
      return { sums, days };
    },

    /** Course goals' lessons completed by the member, and the dates (in their zone) they completed any lately. */
    async courseProgress(memberId: string, courseIds: string[], zone: string, streakFrom: string) {
      const done = new Map<string, number>();
      const days = new Map<string, string[]>();
      if (courseIds.length === 0) return { done, days };
      const localDay = sql<string>`(${lessonProgress.completedAt} at time zone ${zone})::date::text`;
      const [doneRows, dayRows] = await Promise.all([
        db
          .select({ courseId: enrolments.courseId, completed: enrolments.completedLessons })
          .from(enrolments)
          .where(and(eq(enrolments.memberId, memberId), inArray(enrolments.courseId, courseIds))),
        db
          .selectDistinct({ courseId: lessons.courseId, day: localDay })
          .from(lessonProgress)
          .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
          .where(
            and(
              eq(lessonProgress.memberId, memberId),
              inArray(lessons.courseId, courseIds),
              sql`${lessonProgress.completedAt} >= ${streakFrom}::date - 1`,
            ),
          ),
      ]);
      for (const row of doneRows) done.set(row.courseId, row.completed);
      for (const row of dayRows) days.set(row.courseId, [...(days.get(row.courseId) ?? []), row.day]);
      return { done, days };
    },

    /**
     * Goals whose reminder is due now (this hour of the member's day, on their weekday for weekly
     * ones) and not yet sent today, a batch at a time.
     */
    async remindersDue(limit: number) {
      const zone = sql`coalesce(${members.timeZone}, ${DEFAULT_TIME_ZONE})`;
      const localNow = sql`(now() at time zone ${zone})`;
      return db
        .select({
          goal: goals,
          member: {
            id: members.id,
            name: members.name,
            email: members.email,
            emailOptOut: members.emailOptOut,
            timeZone: members.timeZone,
          },
          localDate: sql<string>`${localNow}::date::text`,
        })
        .from(goals)
        .innerJoin(members, eq(members.id, goals.memberId))
        .where(
          and(
            sql`${goals.reminder} <> 'off'`,
            sql`${goals.reminderHour} = extract(hour from ${localNow})`,
            sql`(${goals.reminder} = 'daily' or ${goals.reminderWeekday} = extract(dow from ${localNow}))`,
            sql`not exists (select 1 from ${goalReminders} r where r.goal_id = ${goals.id} and r.local_date = ${localNow}::date)`,
          ),
        )
        .orderBy(asc(goals.id))
        .limit(limit);
    },

    /** Claims the goal's reminder of that date: true for the one process that gets it. */
    async claimReminder(goalId: string, localDate: string): Promise<boolean> {
      const claimed = await db
        .insert(goalReminders)
        .values({ goalId, localDate })
        .onConflictDoNothing()
        .returning({ goalId: goalReminders.goalId });
      return claimed.length > 0;
    },
  };
}
