import { z } from 'zod';
import { Tier } from './tiers.ts';
import type { Viewer } from './viewer.ts';

// SPEC 2 / 3: the resources library.
export const RESOURCE_TYPES = ['daily_tip', 'ebook', 'workbook', 'article', 'market_report'] as const;
export const ResourceType = z.enum(RESOURCE_TYPES);
export type ResourceType = z.infer<typeof ResourceType>;

export const RESOURCE_TYPE_LABEL: Record<ResourceType, string> = {
  daily_tip: 'Daily Tip',
  ebook: 'eBook',
  workbook: 'Workbook',
  article: 'Article',
  market_report: 'Market Report',
};

/** SPEC 3 Resource. download_url is only sent to an entitled member. */
export const Resource = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  resource_type: ResourceType,
  tier_required: Tier,
  download_url: z.string().nullable(),
  /** true when the resource has a download, whether or not this client may see it */
  has_download: z.boolean(),
});
export type Resource = z.infer<typeof Resource>;
export const ResourceList = z.array(Resource);

export interface ResourcesService {
  /** Every resource; a download link only for a member whose tier reaches tier_required. */
  list(viewer: Viewer): Promise<Resource[]>;
}
