import type { Engagement, EngagementFigure, InsightsService, Revenue, RevenueFigure } from '../../common/insights.contract.ts';
import { requireStaff, requireStaffArea } from '../../common/policies.ts';
import { addDays, DEFAULT_TIME_ZONE, instantOf, localDateOf } from '../../common/time-zones.ts';
import type { Viewer } from '../../common/viewer.ts';
import { csvRow } from '../lists/csv.ts';
import type { DataAccess } from '../repositories.ts';
import type { MonthBounds } from './insights.repository.ts';

// The Insights tab's engagement figures (issue 34, part 1), for owners and editors alike: weeks are
// Mondays in UTC, the current one last, each week present (zero when nothing happened in it).

/** Published courses the funnel lists (a catalogue's worth). */
const FUNNEL_COURSES = 200;

/** The Monday of the week `date` (YYYY-MM-DD, UTC) is in. */
function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** The last `count` weeks' Mondays, oldest first. */
export function weeksEndingNow(count: number, now = new Date()): string[] {
  const current = mondayOf(now.toISOString().slice(0, 10));
  return Array.from({ length: count }, (_, index) => addDays(current, -7 * (count - 1 - index)));
}

/** The last `count` months in the business's zone, oldest first: each one's name and bounds. */
export function monthsEndingNow(count: number, now = new Date()): MonthBounds[] {
  const [year, month] = localDateOf(now, DEFAULT_TIME_ZONE).split('-').map(Number) as [number, number];
  const first = (offset: number) => {
    const index = year * 12 + (month - 1) + offset;
    return { year: Math.floor(index / 12), month: (index % 12) + 1 };
  };
  return Array.from({ length: count }, (_, index) => {
    const at = first(index - count + 1);
    const next = first(index - count + 2);
    return {
      month: `${at.year}-${String(at.month).padStart(2, '0')}`,
      starts: instantOf({ year: at.year, month: at.month, day: 1, hour: 0, minute: 0 }, DEFAULT_TIME_ZONE),
      ends: instantOf({ year: next.year, month: next.month, day: 1, hour: 0, minute: 0 }, DEFAULT_TIME_ZONE),
    };
  });
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

export interface ServerInsightsService extends InsightsService {
  /** A figure as CSV: its rows, a header first. */
  engagementCsv(viewer: Viewer, figure: EngagementFigure, weeks: number): Promise<string>;
  revenueCsv(viewer: Viewer, figure: RevenueFigure, months: number): Promise<string>;
}

export function createInsightsService(data: DataAccess): ServerInsightsService {
  async function engagement(viewer: Viewer, query: { weeks: number }): Promise<Engagement> {
    requireStaff(viewer);
    const weeks = weeksEndingNow(query.weeks);
    const from = weeks[0]!;
    const [active, lessons, community, live, funnel, inactive] = await Promise.all([
      data.insights.activeMembers(from),
      data.insights.lessonsCompleted(from),
      data.insights.community(from),
      data.insights.liveSessions(from),
      data.insights.courseFunnel(FUNNEL_COURSES),
      data.insights.inactive(),
    ]);
    const counts = (rows: { week: string; count: number }[]) => new Map(rows.map((row) => [row.week, row.count]));
    const [activeBy, lessonsBy, postsBy, repliesBy] = [active, lessons, community.discussions, community.replies].map(counts);
    const liveBy = new Map(live.map((row) => [row.week, row]));
    return {
      weeks,
      active_members: weeks.map((week) => ({ week, members: activeBy!.get(week) ?? 0 })),
      lessons_completed: weeks.map((week) => ({ week, lessons: lessonsBy!.get(week) ?? 0 })),
      community: weeks.map((week) => ({ week, discussions: postsBy!.get(week) ?? 0, replies: repliesBy!.get(week) ?? 0 })),
      live_sessions: weeks.map((week) => {
        const row = liveBy.get(week);
        return { week, sessions: row?.sessions ?? 0, rsvps: row?.rsvps ?? 0, attended: row?.attended ?? 0 };
      }),
      course_funnel: funnel,
      inactive,
    };
  }

  async function revenue(viewer: Viewer, query: { months: number }): Promise<Revenue> {
    requireStaffArea(viewer, 'billing');
    const months = monthsEndingNow(query.months);
    const [mrr, movements, trials, refunds] = await Promise.all([
      data.revenue.mrr(months),
      data.revenue.movements(months),
      data.revenue.trials(months),
      data.revenue.refunds(months),
    ]);
    const names = months.map((each) => each.month);
    const inMonth = <T extends { month: string }>(rows: T[]) => new Map(rows.map((row) => [row.month, row]));
    const [movedBy, trialsBy, refundsBy] = [inMonth(movements), inMonth(trials), inMonth(refunds)];
    return {
      months: names,
      mrr: names.map((name) => {
        const rows = mrr.filter((row) => row.month === name);
        const paying = (tier: string) => rows.find((row) => row.tier === tier)?.paying ?? 0;
        return {
          month: name,
          mrr_cents: rows.reduce((sum, row) => sum + row.mrr_cents, 0),
          paying: { bronze: paying('bronze'), silver: paying('silver'), gold: paying('gold') },
        };
      }),
      movements: names.map((name) => ({
        month: name,
        new_cents: movedBy.get(name)?.new_cents ?? 0,
        expansion_cents: movedBy.get(name)?.expansion_cents ?? 0,
        contraction_cents: movedBy.get(name)?.contraction_cents ?? 0,
        churned_cents: movedBy.get(name)?.churned_cents ?? 0,
        reactivated_cents: movedBy.get(name)?.reactivated_cents ?? 0,
        churned_members: movedBy.get(name)?.churned_members ?? 0,
      })),
      trials: names.map((name) => ({
        month: name,
        started: trialsBy.get(name)?.started ?? 0,
        converted: trialsBy.get(name)?.converted ?? 0,
      })),
      refunds: names.map((name) => ({
        month: name,
        refunds: refundsBy.get(name)?.refunds ?? 0,
        refunded_cents: refundsBy.get(name)?.refunded_cents ?? 0,
      })),
    };
  }

  return {
    engagement,
    revenue,

    async revenueCsv(viewer, figure, months) {
      const figures = await revenue(viewer, { months });
      const table: (string | number)[][] = (() => {
        switch (figure) {
          case 'mrr':
            return [
              ['month', 'monthly recurring revenue', 'paying bronze', 'paying silver', 'paying gold'],
              ...figures.mrr.map((row) => [row.month, dollars(row.mrr_cents), row.paying.bronze, row.paying.silver, row.paying.gold]),
            ];
          case 'movements':
            return [
              ['month', 'new', 'expansion', 'contraction', 'churned', 'reactivated', 'members churned'],
              ...figures.movements.map((row) => [
                row.month,
                dollars(row.new_cents),
                dollars(row.expansion_cents),
                dollars(row.contraction_cents),
                dollars(row.churned_cents),
                dollars(row.reactivated_cents),
                row.churned_members,
              ]),
            ];
          case 'trials':
            return [['month', 'trials started', 'became paying'], ...figures.trials.map((row) => [row.month, row.started, row.converted])];
          case 'refunds':
            return [
              ['month', 'refunds', 'refunded'],
              ...figures.refunds.map((row) => [row.month, row.refunds, dollars(row.refunded_cents)]),
            ];
        }
      })();
      return table.map((row) => csvRow(row.map(String))).join('');
    },

    async engagementCsv(viewer, figure, weeks) {
      const figures = await engagement(viewer, { weeks });
      const table: (string | number)[][] = (() => {
        switch (figure) {
          case 'active-members':
            return [['week', 'active members'], ...figures.active_members.map((row) => [row.week, row.members])];
          case 'lessons-completed':
            return [['week', 'lessons completed'], ...figures.lessons_completed.map((row) => [row.week, row.lessons])];
          case 'community':
            return [['week', 'discussions', 'replies'], ...figures.community.map((row) => [row.week, row.discussions, row.replies])];
          case 'live-sessions':
            return [
              ['week', 'sessions', 'rsvps', 'attended'],
              ...figures.live_sessions.map((row) => [row.week, row.sessions, row.rsvps, row.attended]),
            ];
          case 'course-funnel':
            return [
              ['course', 'started', '25%', '50%', '75%', 'finished', 'certified'],
              ...figures.course_funnel.map((row) => [
                row.title,
                row.started,
                row.quarter,
                row.half,
                row.three_quarters,
                row.finished,
                row.certified,
              ]),
            ];
          case 'inactive':
            return [
              ['members', 'not seen in 14 days', 'not seen in 30 days'],
              [figures.inactive.members, figures.inactive.days_14, figures.inactive.days_30],
            ];
        }
      })();
      return table.map((row) => csvRow(row.map(String))).join('');
    },
  };
}
