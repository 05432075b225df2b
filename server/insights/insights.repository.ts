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
