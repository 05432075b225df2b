import type { ResourcesService } from '../../common/resources.contract.ts';
import { isEntitled } from '../../common/tiers.ts';
import type { ResourcesRepository } from './resources.repository.ts';

export function createResourcesService(repository: ResourcesRepository): ResourcesService {
  return {
    // A download link is sent only to a member whose tier reaches tier_required.
    async list(viewer) {
      const rows = await repository.list();
      return rows.map((row) => {
        const hasDownload = row.downloadUrl !== null && row.downloadUrl !== '';
        return {
          id: row.id,
          title: row.title,
          description: row.description,
          resource_type: row.resourceType,
          tier_required: row.tierRequired,
          download_url: hasDownload && isEntitled(viewer.member?.membershipTier, row.tierRequired) ? row.downloadUrl : null,
          has_download: hasDownload,
        };
      });
    },
  };
}
