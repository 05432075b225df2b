/** The Insights tab's periods: weeks of engagement and months of revenue (in a module of their own, so pages load no zod). */
export const INSIGHT_WEEKS = { default: 12, max: 52 } as const;
export const INSIGHT_MONTHS = { default: 12, max: 24 } as const;
/** The cohorts shown: members who joined in the last this many months of the range. */
export const COHORT_MONTHS = 12;

/** Each figure's name, as its CSV is asked for (`/api/admin/insights/<half>/<figure>.csv`). */
export const ENGAGEMENT_FIGURES = [
  'active-members',
  'lessons-completed',
  'community',
  'live-sessions',
  'course-funnel',
  'inactive',
] as const;
export const REVENUE_FIGURES = ['mrr', 'movements', 'trials', 'refunds', 'churn', 'sources'] as const;
