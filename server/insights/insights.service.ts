import { COHORT_MONTHS } from '../../common/insight-limits.ts';
import { CACHE_BOUNDS } from '../../common/limits.ts';
import type { Engagement, EngagementFigure, InsightsService, Retention, Revenue, RevenueFigure } from '../../common/insights.contract.ts';
import { mayEnterStaffArea, requireStaff, requireStaffArea } from '../../common/policies.ts';
import { PAID_TIERS, type PaidTier } from '../../common/pricing.ts';
import { addDays, DEFAULT_TIME_ZONE, instantOf, localDateOf } from '../../common/time-zones.ts';
import type { Viewer } from '../../common/viewer.ts';
import { csvRow } from '../lists/csv.ts';
import type { DataAccess } from '../repositories.ts';
import type { MonthBounds } from './insights.repository.ts';
import { KeptFigures } from './kept-figures.ts';

// The Insights tab's figures (issue 34, part 1): engagement for owners and editors alike, revenue
// for owners, retention for both (its paying share for owners). Weeks are Mondays and months are
// calendar months in the business's zone, the current one last, each present (zero when nothing
// happened in it). Each is read once a minute at most and shared by all staff (CACHE_BOUNDS.insightFigures).

/** Published courses the funnel lists (a catalogue's worth). */
const FUNNEL_COURSES = 200;

/** The Monday of the week `date` (YYYY-MM-DD, a calendar date) is in. */
function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** The last `count` weeks' Mondays in the business's zone, oldest first. */
export function weeksEndingNow(count: number, now = new Date()): string[] {
  const current = mondayOf(localDateOf(now, DEFAULT_TIME_ZONE));
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
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
/** A share as a whole percent ('' of no one). */
const percent = (part: number, whole: number) => (whole === 0 ? '' : String(Math.round((part / whole) * 100)));

export interface ServerInsightsService extends InsightsService {
  /** A figure as CSV: its rows, a header first. */
  engagementCsv(viewer: Viewer, figure: EngagementFigure, weeks: number): Promise<string>;
  revenueCsv(viewer: Viewer, figure: RevenueFigure, months: number): Promise<string>;
  retentionCsv(viewer: Viewer, months: number): Promise<string>;
}

export function createInsightsService(
  data: DataAccess,
  options: {
    /** The clock the kept figures' age is read from (tests move it). */
    now?: () => Date;
  } = {},
): ServerInsightsService {
  // Keyed by what the answer depends on: the figure, its period and, for retention, whether the
  // viewer may see billing (never who they are). The checks run first, on every call, so a viewer
  // only reaches the figures their role may read.
  const kept = new KeptFigures(CACHE_BOUNDS.insightFigures, options.now);

  async function engagement(viewer: Viewer, query: { weeks: number }): Promise<Engagement> {
    requireStaff(viewer);
    return kept.get(`engagement ${query.weeks}`, () => readEngagement(query.weeks));
  }

  async function revenue(viewer: Viewer, query: { months: number }): Promise<Revenue> {
    requireStaffArea(viewer, 'billing');
    return kept.get(`revenue ${query.months}`, () => readRevenue(query.months));
  }

  async function retention(viewer: Viewer, query: { months: number }): Promise<Retention> {
    requireStaff(viewer);
    // The paying share is revenue, the owners' (the billing area's); editors see the active share.
    const payingShown = mayEnterStaffArea(viewer, 'billing');
    return kept.get(`retention ${query.months} ${payingShown ? 'paying' : 'active'}`, () => readRetention(query.months, payingShown));
  }

  async function readEngagement(weekCount: number): Promise<Engagement> {
    const weeks = weeksEndingNow(weekCount);
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

  async function readRevenue(monthCount: number): Promise<Revenue> {
    const months = monthsEndingNow(monthCount);
    const [mrr, movements, trials, refunds, churn] = await Promise.all([
      data.revenue.mrr(months),
      data.revenue.movements(months),
      data.revenue.trials(months),
      data.revenue.refunds(months),
      data.revenue.churn(months),
    ]);
    const names = months.map((each) => each.month);
    const inMonth = <T extends { month: string }>(rows: T[]) => new Map(rows.map((row) => [row.month, row]));
    const [movedBy, trialsBy, refundsBy] = [inMonth(movements), inMonth(trials), inMonth(refunds)];
    return {
      months: names,
      mrr: names.map((name) => {
        const rows = mrr.filter((row) => row.month === name);
        // Paying plans are members' own; a team's seats are in `sources`.
        const paying = (tier: string) => sum(rows.filter((row) => row.tier === tier && !row.team).map((row) => row.paying));
        return {
          month: name,
          mrr_cents: sum(rows.map((row) => row.mrr_cents)),
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
      churn: names.map((name) => {
        const ofTier = (tier: PaidTier) => {
          const row = churn.find((each) => each.month === name && each.tier === tier);
          return { paying_at_start: row?.paying_at_start ?? 0, churned: row?.churned ?? 0 };
        };
        return { month: name, bronze: ofTier('bronze'), silver: ofTier('silver'), gold: ofTier('gold') };
      }),
      sources: names.map((name) => {
        const rows = mrr.filter((row) => row.month === name && row.mrr_cents > 0);
        const teams = rows.filter((row) => row.team);
        const offers = new Map<string, Revenue['sources'][number]['offers'][number]>();
        for (const row of rows) {
          if (row.team || !row.offer_id) continue;
          const offer = offers.get(row.offer_id) ?? {
            offer_id: row.offer_id,
            code: row.code,
            name: row.name,
            mrr_cents: 0,
            subscriptions: 0,
          };
          offers.set(row.offer_id, {
            ...offer,
            mrr_cents: offer.mrr_cents + row.mrr_cents,
            subscriptions: offer.subscriptions + row.paying,
          });
        }
        return {
          month: name,
          no_offer_cents: sum(rows.filter((row) => !row.team && !row.offer_id).map((row) => row.mrr_cents)),
          offers: [...offers.values()].sort((a, b) => b.mrr_cents - a.mrr_cents || (a.code ?? '').localeCompare(b.code ?? '')),
          team_seats_cents: sum(teams.map((row) => row.mrr_cents)),
          teams: sum(teams.map((row) => row.paying)),
        };
      }),
    };
  }

  async function readRetention(monthCount: number, payingShown: boolean): Promise<Retention> {
    const months = monthsEndingNow(monthCount);
    const cohorts = Math.min(COHORT_MONTHS, months.length);
    const [sizes, active, paying] = await Promise.all([
      data.retention.sizes(months, cohorts),
      data.retention.active(months, cohorts),
      payingShown ? data.retention.paying(months, cohorts) : Promise.resolve([]),
    ]);
    const names = months.map((each) => each.month);
    const count = (rows: { cohort: string; month: string; members: number }[]) =>
      new Map(rows.map((row) => [`${row.cohort} ${row.month}`, row.members]));
    const [activeBy, payingBy] = [count(active), count(paying)];
    return {
      months: names,
      paying_shown: payingShown,
      cohorts: names.slice(-cohorts).map((cohort) => ({
        month: cohort,
        members: sizes.find((row) => row.cohort === cohort)?.members ?? 0,
        after: names
          .filter((name) => name >= cohort)
          .map((name) => ({
            month: name,
            paying: payingShown ? (payingBy.get(`${cohort} ${name}`) ?? 0) : null,
            active: activeBy.get(`${cohort} ${name}`) ?? 0,
          })),
      })),
    };
  }

  return {
    engagement,
    revenue,
    retention,

    async retentionCsv(viewer, months) {
      const figures = await retention(viewer, { months });
      const paying = figures.paying_shown;
      const table: (string | number)[][] = [
        ['joined', 'members', 'month', 'months after joining', 'active', 'active %', ...(paying ? ['paying', 'paying %'] : [])],
        ...figures.cohorts.flatMap((cohort) =>
          cohort.after.map((row, index) => [
            cohort.month,
            cohort.members,
            row.month,
            index,
            row.active,
            percent(row.active, cohort.members),
            ...(paying ? [row.paying ?? 0, percent(row.paying ?? 0, cohort.members)] : []),
          ]),
        ),
      ];
      return table.map((row) => csvRow(row.map(String))).join('');
    },

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
          case 'churn':
            return [
              ['month', 'tier', 'paying at the start', 'churned', 'churn %'],
              ...figures.churn.flatMap((row) =>
                PAID_TIERS.map((tier) => [
                  row.month,
                  tier,
                  row[tier].paying_at_start,
                  row[tier].churned,
                  percent(row[tier].churned, row[tier].paying_at_start),
                ]),
              ),
            ];
          case 'sources':
            return [
              ['month', 'source', 'offer code', 'monthly recurring revenue', 'paying subscriptions'],
              ...figures.sources.flatMap((row) => [
                [row.month, 'no offer', '', dollars(row.no_offer_cents), ''],
                ...row.offers.map((offer) => [
                  row.month,
                  offer.name ?? 'an offer since removed',
                  offer.code ?? '',
                  dollars(offer.mrr_cents),
                  offer.subscriptions,
                ]),
                [row.month, 'team seats', '', dollars(row.team_seats_cents), row.teams],
              ]),
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
