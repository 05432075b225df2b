import { z } from 'zod';
import { INSIGHT_MONTHS, INSIGHT_WEEKS } from './insight-limits.ts';
import type { Viewer } from './viewer.ts';

// The Insights tab (issue 34, part 1), its engagement half: what members do, week by week (Monday,
// UTC), and each course's funnel. Every figure is a few rows computed in SQL over indexes or rollups
// kept by the database; each has its CSV.

export const InsightsQuery = z.object({
  weeks: z.coerce
    .number({ error: 'Weeks must be a number' })
    .int('Weeks must be a whole number')
    .min(1, 'Show at least 1 week')
    .max(INSIGHT_WEEKS.max, `Show at most ${INSIGHT_WEEKS.max} weeks`)
    .default(INSIGHT_WEEKS.default),
});
export type InsightsQuery = z.infer<typeof InsightsQuery>;

const ENGAGEMENT_FIGURES = ['active-members', 'lessons-completed', 'community', 'live-sessions', 'course-funnel', 'inactive'] as const;
export type EngagementFigure = (typeof ENGAGEMENT_FIGURES)[number];
export const FigureParams = z.object({
  figure: z.enum(ENGAGEMENT_FIGURES, { error: `Choose a figure: ${ENGAGEMENT_FIGURES.join(', ')}` }),
});

const week = z.string();
export const Engagement = z.object({
  weeks: z.array(week),
  active_members: z.array(z.object({ week, members: z.number().int() })),
  lessons_completed: z.array(z.object({ week, lessons: z.number().int() })),
  community: z.array(z.object({ week, discussions: z.number().int(), replies: z.number().int() })),
  live_sessions: z.array(z.object({ week, sessions: z.number().int(), rsvps: z.number().int(), attended: z.number().int() })),
  course_funnel: z.array(
    z.object({
      course_id: z.string(),
      title: z.string(),
      started: z.number().int(),
      quarter: z.number().int(),
      half: z.number().int(),
      three_quarters: z.number().int(),
      finished: z.number().int(),
      certified: z.number().int(),
    }),
  ),
  inactive: z.object({ members: z.number().int(), days_14: z.number().int(), days_30: z.number().int() }),
});
export type Engagement = z.infer<typeof Engagement>;

// The revenue half (owners: it is the billing area's): by month in the business's time zone, from the
// history of each subscription's monthly recurring revenue the database keeps as Stripe's events arrive.

export const RevenueQuery = z.object({
  months: z.coerce
    .number({ error: 'Months must be a number' })
    .int('Months must be a whole number')
    .min(1, 'Show at least 1 month')
    .max(INSIGHT_MONTHS.max, `Show at most ${INSIGHT_MONTHS.max} months`)
    .default(INSIGHT_MONTHS.default),
});
export type RevenueQuery = z.infer<typeof RevenueQuery>;

const REVENUE_FIGURES = ['mrr', 'movements', 'trials', 'refunds'] as const;
export type RevenueFigure = (typeof REVENUE_FIGURES)[number];
export const RevenueFigureParams = z.object({
  figure: z.enum(REVENUE_FIGURES, { error: `Choose a figure: ${REVENUE_FIGURES.join(', ')}` }),
});

const month = z.string();
const cents = z.number().int();
export const Revenue = z.object({
  months: z.array(month),
  /** At each month's end (now, for the current month): the monthly recurring revenue and paying subscriptions per tier. */
  mrr: z.array(
    z.object({ month, mrr_cents: cents, paying: z.object({ bronze: z.number().int(), silver: z.number().int(), gold: z.number().int() }) }),
  ),
  /** What moved it during each month, member by member: new, expansion, contraction, churned and reactivated revenue. */
  movements: z.array(
    z.object({
      month,
      new_cents: cents,
      expansion_cents: cents,
      contraction_cents: cents,
      churned_cents: cents,
      reactivated_cents: cents,
      churned_members: z.number().int(),
    }),
  ),
  trials: z.array(z.object({ month, started: z.number().int(), converted: z.number().int() })),
  refunds: z.array(z.object({ month, refunds: z.number().int(), refunded_cents: cents })),
});
export type Revenue = z.infer<typeof Revenue>;

export interface InsightsService {
  engagement(viewer: Viewer, query: InsightsQuery): Promise<Engagement>;
  revenue(viewer: Viewer, query: RevenueQuery): Promise<Revenue>;
}
