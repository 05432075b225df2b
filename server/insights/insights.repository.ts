import { sql } from 'drizzle-orm';
import { DEFAULT_TIME_ZONE } from '../../common/time-zones.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';

// The Insights tab's figures, each one statement over an index or a rollup the database keeps:
// weeks are Mondays in the business's zone (as member_active_weeks' trigger notes them, migration
// 0056), from `from` (a Monday) up to now.

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

/** The business's week of an instant column: its Monday's date there. */
const weekOf = (column: ReturnType<typeof sql>) => sql`date_trunc('week', ${column} at time zone ${DEFAULT_TIME_ZONE})::date`;
/** Midnight at the start of a date in the business's zone, as an instant (a constant the column's index compares with). */
const midnightOf = (date: string) => sql`(${date}::timestamp at time zone ${DEFAULT_TIME_ZONE})`;

export function createInsightsRepository(db: DatabaseOrTransaction) {
  /** A count per week of rows of `table` whose `column` falls in it (an index on `column` reads the weeks). */
  async function perWeek(from: string, select: ReturnType<typeof sql>) {
    return rowsOf<{ week: string; count: number }>(await db.execute(sql`select week::text, count::int from (${select}) counted`)).filter(
      (row) => row.week >= from,
    );
  }
  /** A count per week that a trigger keeps in weekly_counts (migration 0057). */
  const counted = (metric: 'lessons_completed' | 'discussions' | 'replies', from: string) =>
    perWeek(from, sql`select week, value as count from weekly_counts where metric = ${metric} and week >= ${from}::date`);

  return {
    /** Members who used the site each week (member_active_weeks, kept by a trigger on sessions). */
    activeMembers: (from: string) =>
      perWeek(from, sql`select week, count(*) as count from member_active_weeks where week >= ${from}::date group by week`),

    /** Lessons completed each week (weekly_counts, kept by a trigger on lesson_progress). */
    lessonsCompleted: (from: string) => counted('lessons_completed', from),

    async community(from: string) {
      const [discussions, replies] = await Promise.all([counted('discussions', from), counted('replies', from)]);
      return { discussions, replies };
    },

    /** Live sessions held each week (not cancelled, begun), with their RSVPs and the members who joined. */
    async liveSessions(from: string) {
      return rowsOf<{ week: string; sessions: number; rsvps: number; attended: number }>(
        await db.execute(sql`
          select ${weekOf(sql`s.starts_at`)}::text as week, count(*)::int as sessions,
            coalesce(sum((select count(*) from coaching_rsvps r where r.session_id = s.id)), 0)::int as rsvps,
            coalesce(sum((select count(*) from coaching_attendance a where a.session_id = s.id)), 0)::int as attended
          from coaching_sessions s
          where s.starts_at >= ${midnightOf(from)} and s.starts_at <= now() and s.cancelled_at is null
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

    /** Members, and those not seen on the site in 14 and in 30 days (by the day each was last seen, member_last_seen). */
    async inactive() {
      const seenSince = (days: number) =>
        sql`(select count(*) from member_last_seen where seen_on >= ((now() at time zone 'UTC')::date - ${days}::int))`;
      const [row] = rowsOf<{ members: number; days_14: number; days_30: number }>(
        await db.execute(sql`
          select total::int as members, (total - ${seenSince(14)})::int as days_14, (total - ${seenSince(30)})::int as days_30
          from (select count(*) as total from members) counted`),
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

/**
 * The month boundaries as a table the statements join (`bounds(month, starts, ends)`): a list of
 * values, so the planner knows its rows (a set-returning function counts as 100, and the inflated
 * cost had PostgreSQL compile the statement with JIT, slower than running it).
 */
const boundsOf = (months: MonthBounds[]) =>
  sql`(select * from (values ${sql.join(
    months.map((each) => sql`(${each.month}::text, ${each.starts.toISOString()}::timestamptz, ${each.ends.toISOString()}::timestamptz)`),
    sql`, `,
  )}) as bounds(month, starts, ends))`;

/** The member's (or everyone's) revenue at an instant: each subscription's last change before it. */
export function createRevenueRepository(db: DatabaseOrTransaction) {
  return {
    /**
     * At each month's end (now, for the current one): the recurring revenue and paying subscriptions
     * by tier, by the offer they were bought with, and whether they are a team's seats. Each change
     * lasts until the subscription's next one (a span): the span that covers an instant is its revenue
     * then, so one pass over the history serves every month.
     */
    async mrr(months: MonthBounds[]) {
      const last = months.at(-1)!;
      return rowsOf<{
        month: string;
        tier: string | null;
        offer_id: string | null;
        code: string | null;
        name: string | null;
        team: boolean;
        mrr_cents: number;
        paying: number;
      }>(
        await db.execute(sql`
          with ends as (select b.month, least(b.ends, now()) as at from ${boundsOf(months)} b),
          spans as (
            select c.tier, c.to_cents, c.offer_id, c.team_id is not null as team, c.changed_at,
              lead(c.changed_at) over (partition by c.subscription_id order by c.changed_at, c.id) as until
            from mrr_changes c where c.changed_at < ${last.ends.toISOString()}::timestamptz
          ),
          totals as (
            select e.month, s.tier, s.offer_id, s.team, sum(s.to_cents) as mrr_cents, count(*) as paying
            from ends e join spans s on s.changed_at < e.at and (s.until is null or s.until >= e.at)
            where s.to_cents > 0
            group by e.month, s.tier, s.offer_id, s.team
          )
          select t.month, t.tier, t.offer_id::text, o.code, o.name, t.team, t.mrr_cents::int, t.paying::int
          from totals t left join offers o on o.id = t.offer_id`),
      );
    },

    /**
     * Churn per tier: plans of the tier paying at the month's start (members' own, not a team's), and
     * those of them that stopped paying within the month. Each change lasts until the subscription's
     * next one (a span); a plan is counted in each month whose start its paying span covers.
     */
    async churn(months: MonthBounds[]) {
      const last = months.at(-1)!;
      return rowsOf<{ month: string; tier: string; paying_at_start: number; churned: number }>(
        await db.execute(sql`
          with bounds as ${boundsOf(months)},
          spans as (
            select c.subscription_id, c.tier, c.to_cents, c.changed_at,
              lead(c.changed_at) over (partition by c.subscription_id order by c.changed_at, c.id) as until
            from mrr_changes c where c.team_id is null and c.changed_at < ${last.ends.toISOString()}::timestamptz
          ),
          stopped as (
            select distinct z.subscription_id, b.month
            from bounds b join mrr_changes z on z.changed_at >= b.starts and z.changed_at < b.ends
            where z.to_cents = 0 and z.team_id is null
          )
          select b.month, s.tier, count(*)::int as paying_at_start, count(stopped.subscription_id)::int as churned
          from bounds b
          join spans s on s.changed_at < b.starts and (s.until is null or s.until >= b.starts)
          left join stopped on stopped.subscription_id = s.subscription_id and stopped.month = b.month
          where s.to_cents > 0 and s.tier is not null
          group by b.month, s.tier`),
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
          levels as materialized (
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

/** Members who joined in each of the cohorts' months (`cohorts`, the last ones of `months`). */
const cohortOf = (months: MonthBounds[], cohorts: number) =>
  sql`(select m.id as member_id, b.month as cohort
      from ${boundsOf(months.slice(-cohorts))} b join members m on m.created_at >= b.starts and m.created_at < b.ends)`;

/** Retention: members by the month they joined, and for each month since, how many paid or used the site. */
export function createRetentionRepository(db: DatabaseOrTransaction) {
  return {
    async sizes(months: MonthBounds[], cohorts: number) {
      return rowsOf<{ cohort: string; members: number }>(
        await db.execute(sql`select cohort, count(*)::int as members from ${cohortOf(months, cohorts)} c group by cohort`),
      );
    },

    /**
     * Of each cohort, the members paying at each month's end (now, for the current one): a
     * subscription of theirs (or their team's seats) bringing revenue then, from the revenue history.
     */
    async paying(months: MonthBounds[], cohorts: number) {
      return rowsOf<{ cohort: string; month: string; members: number }>(
        await db.execute(sql`
          with cohort as ${cohortOf(months, cohorts)},
          spans as (
            select x.member_id, x.to_cents, x.changed_at,
              lead(x.changed_at) over (partition by x.subscription_id order by x.changed_at, x.id) as until
            from mrr_changes x where x.member_id in (select member_id from cohort)
          )
          select c.cohort, b.month, count(distinct s.member_id)::int as members
          from spans s
          join cohort c on c.member_id = s.member_id
          join ${boundsOf(months.slice(-cohorts))} b on b.month >= c.cohort
            and s.changed_at < least(b.ends, now()) and (s.until is null or s.until >= least(b.ends, now()))
          where s.to_cents > 0
          group by c.cohort, b.month`),
      );
    },

    /** Of each cohort, the members who used the site in each month: a week of theirs (its Monday) in it. */
    async active(months: MonthBounds[], cohorts: number) {
      return rowsOf<{ cohort: string; month: string; members: number }>(
        await db.execute(sql`
          with cohort as ${cohortOf(months, cohorts)},
          days as (
            select b.month, (b.month || '-01')::date as first, ((b.month || '-01')::date + interval '1 month')::date as next
            from ${boundsOf(months.slice(-cohorts))} b
          )
          select c.cohort, d.month, count(distinct w.member_id)::int as members
          from days d
          join member_active_weeks w on w.week >= d.first and w.week < d.next
          join cohort c on c.member_id = w.member_id and c.cohort <= d.month
          group by c.cohort, d.month`),
      );
    },
  };
}
