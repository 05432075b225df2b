import type { Resource, ResourcesService } from '../../common/resources.contract.ts';
import { mayDownloadResource } from '../../common/policies.ts';
import type { DataAccess } from '../repositories.ts';
import type { ResourcesRepository } from './resources.repository.ts';

export type ResourceRow = Awaited<ReturnType<ResourcesRepository['list']>>[number];

// The resources library as members and visitors see it (staff author it in resource-authoring.service.ts).

/** Where the resource's download is: its stored file (checked by tier) or its outside link. */
const linkOf = (row: ResourceRow) => (row.fileId ? `/api/resources/${row.id}/download` : row.downloadUrl || null);

/** A resource as members see it; its download link only for whoever may download it (`entitled`). */
export const publicShape = (row: ResourceRow, entitled: boolean): Resource => {
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

export function createResourcesService(data: DataAccess): ResourcesService {
  return {
    // A download link is sent only to whoever may download it (policies.ts).
    async list(viewer) {
      const rows = await data.resources.list();
      return rows.map((row) => publicShape(row, mayDownloadResource(viewer, row)));
    },
  };
}
