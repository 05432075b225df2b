import type { ResourcesService } from '../../common/resources.contract.ts';
import { isEntitled } from '../../common/tiers.ts';
import type { ResourcesRepository } from './resources.repository.ts';

export function createResourcesService(repository: ResourcesRepository): ResourcesService {
  return {
    // A download link is sent only to a member whose tier reaches tier_required.
    async list(viewer) {
      const rows = await repository.list();
      return rows.map((row) => {
        // A stored file goes through its own tier check; an external link is given as it is.
        const link = row.fileId ? `/api/resources/${row.id}/download` : row.downloadUrl || null;
        const hasDownload = link !== null;
        return {
          id: row.id,
          title: row.title,
          description: row.description,
          resource_type: row.resourceType,
          tier_required: row.tierRequired,
          download_url: hasDownload && isEntitled(viewer.member?.membershipTier, row.tierRequired) ? link : null,
          has_download: hasDownload,
        };
      });
    },
  };
}
