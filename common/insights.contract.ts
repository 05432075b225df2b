import { z } from 'zod';
import type { Viewer } from './viewer.ts';

// The Insights tab (issue 34, part 1), its engagement half: what members do, week by week (Monday,
// UTC), and each course's funnel. Every figure is a few rows computed in SQL over indexes or rollups
// kept by the database; each has its CSV.

export const INSIGHT_WEEKS = { default: 12, max: 52 } as const;

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

export interface InsightsService {
  engagement(viewer: Viewer, query: InsightsQuery): Promise<Engagement>;
}
