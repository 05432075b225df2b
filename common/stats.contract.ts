import { z } from 'zod';

/** SPEC 7 /admin/analytics/content: public counts for the home page's trust badges. */
export const ContentStats = z.object({ total_users: z.number().int(), total_courses: z.number().int() });
export type ContentStats = z.infer<typeof ContentStats>;

/**
 * The numbers the public pages show, one value per fact so no page contradicts another: the copy
 * staff wrote in the site_numbers content section, or else the real count (null when there is
 * nothing to count yet, so no page says '0+').
 */
export interface SiteNumbers {
  members: string | null;
  courses: string | null;
  rating: string | null;
  daily_posts: string | null;
  years: string | null;
}

export interface StatsService {
  contentStats(): Promise<ContentStats>;
  siteNumbers(): Promise<SiteNumbers>;
}
