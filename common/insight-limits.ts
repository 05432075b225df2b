/** The Insights tab's periods: weeks of engagement and months of revenue (in a module of their own, so pages load no zod). */
export const INSIGHT_WEEKS = { default: 12, max: 52 } as const;
export const INSIGHT_MONTHS = { default: 12, max: 24 } as const;
