import { z } from 'zod';
import { COURSE_CATEGORIES } from './courses.contract.ts';
import { Tier } from './tiers.ts';
import type { Viewer } from './viewer.ts';

// 'Recommended for you' on the dashboard: a few courses picked by rules (docs/decisions/016), each
// with the reason it was picked. A course the member's plan does not open is shown as the upgrade.

export const CATEGORY_LABEL: Record<(typeof COURSE_CATEGORIES)[number], string> = {
  sales: 'Sales',
  marketing: 'Marketing',
  negotiation: 'Negotiation',
  specialization: 'Specialization',
  business: 'Business',
};

export const Recommendation = z.object({
  course_id: z.string(),
  title: z.string(),
  /** Why it is recommended: "Because you are working on Negotiation". */
  reason: z.string(),
  /** Where it leads: the course, or the plans for a course the member's plan does not open. */
  href: z.string(),
  locked: z.boolean(),
  upgrade_to: Tier.nullable(),
});
export type Recommendation = z.infer<typeof Recommendation>;
export const RecommendationList = z.array(Recommendation);

export interface RecommendationsService {
  /** A few courses for this member, each with its reason, best first. */
  forMember(viewer: Viewer): Promise<Recommendation[]>;
}
