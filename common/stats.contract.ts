import { z } from 'zod';

/** SPEC 7 /admin/analytics/content: public counts for the home page's trust badges. */
export const ContentStats = z.object({ total_users: z.number().int(), total_courses: z.number().int() });
export type ContentStats = z.infer<typeof ContentStats>;

export interface StatsService {
  contentStats(): Promise<ContentStats>;
}
