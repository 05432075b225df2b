import { z } from 'zod';
import { optionalText, requiredText, slugParam, uuidParam } from './fields.ts';
import { Tier } from './tiers.ts';
import type { BeforeQuery, Paged } from './paging.ts';
import type { Viewer } from './viewer.ts';
import { TEXT_MAX } from './limits.ts';

// SPEC 2 / 3: the resources library.
export const RESOURCE_TYPES = ['daily_tip', 'ebook', 'workbook', 'article', 'market_report'] as const;
export const ResourceType = z.enum(RESOURCE_TYPES, { error: 'Type must be daily_tip, ebook, workbook, article or market_report' });
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

export const DAILY_TIP_IS_TEXT = 'A daily tip is text: it has no file or link.';

/** What staff write: a file from the library (served only to entitled members) or a link, except for daily tips. */
export const ResourceInput = z
  .object({
    title: requiredText('Title', TEXT_MAX.resourceTitle),
    description: requiredText('Description', TEXT_MAX.resourceDescription, { multiline: true }),
    resource_type: ResourceType,
    tier_required: Tier,
    file_id: uuidParam('File').nullable().default(null),
    /** An outside link: the site cannot protect what it points to. */
    download_url: optionalText('Link', TEXT_MAX.link)
      .refine((value) => value === '' || /^https:\/\/\S+$/.test(value), 'Link must start with https://')
      .default(''),
  })
  .refine((input) => !(input.file_id && input.download_url), { message: 'Choose a file or a link, not both', path: ['download_url'] })
  .refine((input) => input.resource_type !== 'daily_tip' || (!input.file_id && !input.download_url), {
    message: DAILY_TIP_IS_TEXT,
    path: ['resource_type'],
  });
export type ResourceInput = z.infer<typeof ResourceInput>;
export const ResourceParams = z.object({ id: slugParam('Resource id') });

export const StaffResource = Resource.extend({
  file_id: z.string().nullable(),
  file_name: z.string().nullable(),
  link: z.string(),
});
export type StaffResource = z.infer<typeof StaffResource>;
export const StaffResourceList = z.array(StaffResource);

export interface ResourcesService {
  /** Every resource; a download link only for a member whose tier reaches tier_required. */
  list(viewer: Viewer): Promise<Resource[]>;
  /** The daily tip of this date (YYYY-MM-DD, the member's own), the same for everyone; null without tips. */
  tipOfTheDay(viewer: Viewer, localDate: string): Promise<Resource | null>;
}

/** Staff's side: the resources with their files, and authoring them. */
export interface ResourceAuthoringService {
  /** Every resource, a page at a time in the library's order (`?before=` the last shown). */
  staffList(viewer: Viewer, query?: BeforeQuery): Promise<Paged<StaffResource>>;
  create(viewer: Viewer, input: ResourceInput): Promise<StaffResource>;
  update(viewer: Viewer, resourceId: string, input: ResourceInput): Promise<StaffResource>;
  remove(viewer: Viewer, resourceId: string): Promise<void>;
}
