import { z } from 'zod';
import { ENGAGEMENT_FIGURES, INSIGHT_MONTHS, INSIGHT_WEEKS, REVENUE_FIGURES } from './insight-limits.ts';
import type { Viewer } from './viewer.ts';

// The Insights tab (issue 34, part 1), its engagement half: what members do, week by week (Monday,
// in the business's time zone), and each course's funnel. Every figure is a few rows computed in SQL
// over indexes or rollups kept by the database; each has its CSV.

export const InsightsQuery = z.object({
  weeks: z.coerce
    .number({ error: 'Weeks must be a number' })
    .int('Weeks must be a whole number')
    .min(1, 'Show at least 1 week')
    .max(INSIGHT_WEEKS.max, `Show at most ${INSIGHT_WEEKS.max} weeks`)
    .default(INSIGHT_WEEKS.default),
});
export type InsightsQuery = z.infer<typeof InsightsQuery>;

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

export type RevenueFigure = (typeof REVENUE_FIGURES)[number];
export const RevenueFigureParams = z.object({
  figure: z.enum(REVENUE_FIGURES, { error: `Choose a figure: ${REVENUE_FIGURES.join(', ')}` }),
});

const month = z.string();
const cents = z.number().int();
export const Revenue = z.object({
  months: z.array(month),
  /**
   * At each month's end (now, for the current month): the monthly recurring revenue (team seats
   * included) and members' own paying subscriptions per tier.
   */
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
  /** Per tier: members' own plans of it paying at the month's start, and those of them that stopped paying in the month. */
  churn: z.array(
    z.object({
      month,
      bronze: z.object({ paying_at_start: z.number().int(), churned: z.number().int() }),
      silver: z.object({ paying_at_start: z.number().int(), churned: z.number().int() }),
      gold: z.object({ paying_at_start: z.number().int(), churned: z.number().int() }),
    }),
  ),
  /**
   * Where each month's recurring revenue (at its end, at the plans' prices) comes from: members' own
   * plans bought without an offer, those bought with each offer, and team seats.
   */
  sources: z.array(
    z.object({
      month,
      no_offer_cents: cents,
      offers: z.array(
        z.object({
          offer_id: z.string(),
          /** Null for an offer no longer on the site. */
          code: z.string().nullable(),
          name: z.string().nullable(),
          mrr_cents: cents,
          subscriptions: z.number().int(),
        }),
      ),
      team_seats_cents: cents,
      teams: z.number().int(),
    }),
  ),
});
export type Revenue = z.infer<typeof Revenue>;

// Retention (every staff member; the paying share the owners' only): members by the month they
// joined, and for each month since, how many of them were paying at its end and how many used the
// site in it.

export const Retention = z.object({
  months: z.array(month),
  /** Whether the paying counts are there (owners); null in each month otherwise. */
  paying_shown: z.boolean(),
  cohorts: z.array(
    z.object({
      /** The month they joined. */
      month,
      members: z.number().int(),
      /** The month they joined first, then each month after it up to the current one. */
      after: z.array(z.object({ month, paying: z.number().int().nullable(), active: z.number().int() })),
    }),
  ),
});
export type Retention = z.infer<typeof Retention>;

export interface InsightsService {
  engagement(viewer: Viewer, query: InsightsQuery): Promise<Engagement>;
  revenue(viewer: Viewer, query: RevenueQuery): Promise<Revenue>;
  retention(viewer: Viewer, query: RevenueQuery): Promise<Retention>;
}
