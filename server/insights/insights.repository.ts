import { sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';

// The Insights tab's figures, each one statement over an index or a rollup the database keeps:
// weeks are Mondays in UTC, from `from` (a Monday) up to now.

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

export function createInsightsRepository(db: DatabaseOrTransaction) {
  /** A count per week of rows of `table` whose `column` falls in it (an index on `column` reads the weeks). */
  async function perWeek(from: string, select: ReturnType<typeof sql>) {
    return rowsOf<{ week: string; count: number }>(await db.execute(sql`select week::text, count::int from (${select}) counted`)).filter(
      (row) => row.week >= from,
    );
  }
  return {
    /** Members who used the site each week (member_active_weeks, kept by a trigger on sessions). */
    activeMembers: (from: string) =>
      perWeek(from, sql`select week, count(*) as count from member_active_weeks where week >= ${from}::date group by week`),

    lessonsCompleted: (from: string) =>
      perWeek(
        from,
        sql`select date_trunc('week', completed_at at time zone 'UTC')::date as week, count(*) as count
            from lesson_progress where completed_at >= ${from}::date group by 1`,
      ),

    async community(from: string) {
      const [discussions, replies] = await Promise.all([
        perWeek(
          from,
          sql`select date_trunc('week', created_at at time zone 'UTC')::date as week, count(*) as count
              from community_posts where created_at >= ${from}::date group by 1`,
        ),
        perWeek(
          from,
          sql`select date_trunc('week', created_at at time zone 'UTC')::date as week, count(*) as count
              from community_replies where created_at >= ${from}::date group by 1`,
        ),
      ]);
      return { discussions, replies };
    },

    /** Live sessions held each week (not cancelled, begun), with their RSVPs and the members who joined. */
    async liveSessions(from: string) {
      return rowsOf<{ week: string; sessions: number; rsvps: number; attended: number }>(
        await db.execute(sql`
          select date_trunc('week', s.starts_at at time zone 'UTC')::date::text as week, count(*)::int as sessions,
            coalesce(sum((select count(*) from coaching_rsvps r where r.session_id = s.id)), 0)::int as rsvps,
            coalesce(sum((select count(*) from coaching_attendance a where a.session_id = s.id)), 0)::int as attended
          from coaching_sessions s
          where s.starts_at >= ${from}::date and s.starts_at <= now() and s.cancelled_at is null
          group by 1`),
      );
    },

    /** Each published course's learners by how far they got: started, a quarter, half, three quarters, finished, certified. */
    async courseFunnel(limit: number) {
      return rowsOf<{
        course_id: string;
        title: string;
        started: number;
        quarter: number;
        half: number;
        three_quarters: number;
        finished: number;
        certified: number;
      }>(
        await db.execute(sql`
          select c.id as course_id, c.title,
            count(e.member_id)::int as started,
            count(e.member_id) filter (where e.completed_lessons * 4 >= l.lessons)::int as quarter,
            count(e.member_id) filter (where e.completed_lessons * 2 >= l.lessons)::int as half,
            count(e.member_id) filter (where e.completed_lessons * 4 >= l.lessons * 3)::int as three_quarters,
            count(e.member_id) filter (where e.completed_lessons >= l.lessons)::int as finished,
            coalesce(max(counts.certified), 0)::int as certified
          from (select id, title, position from courses where status = 'published' order by position, title, id limit ${limit}) c
          cross join lateral (select greatest(count(*), 1) as lessons from lessons where course_id = c.id) l
          left join enrolments e on e.course_id = c.id
          left join course_learner_counts counts on counts.course_id = c.id
          group by c.id, c.title, c.position, l.lessons
          order by c.position, c.title, c.id`),
      );
    },

    /** Members, and those not seen on the site (no session used) in 14 and in 30 days. */
    async inactive() {
      const [row] = rowsOf<{ members: number; days_14: number; days_30: number }>(
        await db.execute(sql`
          with last_seen as (
            select m.id, (select max(s.last_seen_at) from sessions s where s.member_id = m.id) as seen from members m
          )
          select count(*)::int as members,
            count(*) filter (where seen is null or seen < now() - interval '14 days')::int as days_14,
            count(*) filter (where seen is null or seen < now() - interval '30 days')::int as days_30
          from last_seen`),
      );
      return row ?? { members: 0, days_14: 0, days_30: 0 };
    },
  };
}

/** A month: its name (YYYY-MM) and its first and next month's first instants in the business's zone. */
export interface MonthBounds {
  month: string;
  starts: Date;
  ends: Date;
}

/** The month boundaries as a table the statements join (`bounds(month, starts, ends)`). */
const boundsOf = (months: MonthBounds[]) =>
  sql`(select * from jsonb_to_recordset(${JSON.stringify(months)}::jsonb) as bounds(month text, starts timestamptz, ends timestamptz))`;

/** The member's (or everyone's) revenue at an instant: each subscription's last change before it. */
export function createRevenueRepository(db: DatabaseOrTransaction) {
  return {
    async mrr(months: MonthBounds[]) {
      return rowsOf<{ month: string; tier: string | null; mrr_cents: number; paying: number }>(
        await db.execute(sql`
          select b.month, last.tier, coalesce(sum(last.to_cents), 0)::int as mrr_cents, count(*) filter (where last.to_cents > 0)::int as paying
          from ${boundsOf(months)} b
          cross join lateral (
            select distinct on (c.subscription_id) c.tier, c.to_cents from mrr_changes c
            where c.changed_at < least(b.ends, now())
            order by c.subscription_id, c.changed_at desc, c.id desc
          ) last
          group by b.month, last.tier`),
      );
    },

    /** Each member whose revenue moved in a month, their revenue at its start and end, and whether they had paid before it. */
    async movements(months: MonthBounds[]) {
      const levelAt = (at: ReturnType<typeof sql>) => sql`(select coalesce(sum(x.to_cents), 0) from (
          select distinct on (c.subscription_id) c.to_cents from mrr_changes c
          where c.member_id = moved.member_id and c.changed_at < ${at}
          order by c.subscription_id, c.changed_at desc, c.id desc) x)`;
      return rowsOf<{
        month: string;
        new_cents: number;
        expansion_cents: number;
        contraction_cents: number;
        churned_cents: number;
        reactivated_cents: number;
        churned_members: number;
      }>(
        await db.execute(sql`
          with moved as (
            select distinct c.member_id, b.month, b.starts, b.ends
            from ${boundsOf(months)} b join mrr_changes c on c.changed_at >= b.starts and c.changed_at < b.ends
          ),
          levels as (
            select moved.month, ${levelAt(sql`moved.starts`)} as start_mrr, ${levelAt(sql`moved.ends`)} as end_mrr,
              exists (select 1 from mrr_changes c where c.member_id = moved.member_id and c.changed_at < moved.starts and c.to_cents > 0) as paid_before
            from moved
          )
          select month,
            coalesce(sum(end_mrr) filter (where start_mrr = 0 and end_mrr > 0 and not paid_before), 0)::int as new_cents,
            coalesce(sum(end_mrr - start_mrr) filter (where start_mrr > 0 and end_mrr > start_mrr), 0)::int as expansion_cents,
            coalesce(sum(start_mrr - end_mrr) filter (where end_mrr > 0 and end_mrr < start_mrr), 0)::int as contraction_cents,
            coalesce(sum(start_mrr) filter (where start_mrr > 0 and end_mrr = 0), 0)::int as churned_cents,
            coalesce(sum(end_mrr) filter (where start_mrr = 0 and end_mrr > 0 and paid_before), 0)::int as reactivated_cents,
            count(*) filter (where start_mrr > 0 and end_mrr = 0)::int as churned_members
          from levels group by month`),
      );
    },

    /** Trials started in each month, and how many of those subscriptions went on to pay. */
    async trials(months: MonthBounds[]) {
      return rowsOf<{ month: string; started: number; converted: number }>(
        await db.execute(sql`
          select b.month, count(*)::int as started,
            count(*) filter (where exists (select 1 from mrr_changes c where c.subscription_id = s.id and c.to_cents > 0))::int as converted
          from ${boundsOf(months)} b
          join subscriptions s on s.trial_ends_at is not null and s.started_at >= b.starts and s.started_at < b.ends
          group by b.month`),
      );
    },

    async refunds(months: MonthBounds[]) {
      return rowsOf<{ month: string; refunds: number; refunded_cents: number }>(
        await db.execute(sql`
          select b.month, count(*)::int as refunds, coalesce(sum(s.refunded_cents), 0)::int as refunded_cents
          from ${boundsOf(months)} b join subscriptions s on s.refunded_at >= b.starts and s.refunded_at < b.ends
          group by b.month`),
      );
    },
  };
}
