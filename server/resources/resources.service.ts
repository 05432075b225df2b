import type { Resource, ResourcesService } from '../../common/resources.contract.ts';
import { mayDownloadResource, mayOpenServedFile } from '../../common/policies.ts';
import type { Viewer } from '../../common/viewer.ts';
import type { DataAccess } from '../repositories.ts';
import type { ResourcesRepository } from './resources.repository.ts';

type ResourceRow = Awaited<ReturnType<ResourcesRepository['list']>>[number];
/** A resource's own columns, as staff's writes return them. */
export type ResourceRecord = Omit<ResourceRow, 'fileAccessTier'>;

// The resources library as members and visitors see it (staff author it in resource-authoring.service.ts).

/** Where the resource's download is: its stored file (checked by tier) or its outside link. */
const linkOf = (row: ResourceRecord) => (row.fileId ? `/api/resources/${row.id}/download` : row.downloadUrl || null);

/** A resource as members see it; its download link only for whoever may download it (`entitled`). */
export const publicShape = (row: ResourceRecord, entitled: boolean): Resource => {
  const link = linkOf(row);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    resource_type: row.resourceType,
    tier_required: row.tierRequired,
    download_url: link !== null && entitled ? link : null,
    has_download: link !== null,
  };
};

/**
 * The tip of a date (YYYY-MM-DD): the tips take turns, one a day, picked by the day's number since
 * 1970, so everyone whose calendar shows that date sees the same tip (the dashboard, the weekly email).
 */
export function tipOn<T>(tips: readonly T[], date: string): T | null {
  if (tips.length === 0) return null;
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  return tips[((day % tips.length) + tips.length) % tips.length]!;
}

/** Whether the viewer may download it: the resource's tier, and a stored file's own visibility too (as its route checks). */
const mayDownload = (viewer: Viewer, row: ResourceRow) =>
  row.fileId
    ? mayOpenServedFile(viewer, { accessTier: row.fileAccessTier }, [{ as: 'download', tierRequired: row.tierRequired }])
    : mayDownloadResource(viewer, row);

export function createResourcesService(data: DataAccess): ResourcesService {
  return {
    // A download link is sent only to whoever may download it (policies.ts).
    async list(viewer) {
      const rows = await data.resources.list();
      return rows.map((row) => publicShape(row, mayDownload(viewer, row)));
    },

    async tipOfTheDay(viewer, localDate) {
      const tip = tipOn(await data.resources.dailyTips(), localDate);
      return tip && publicShape(tip, mayDownload(viewer, tip));
    },
  };
}
