import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Resource, ResourceType } from '../../common/catalogue.ts';
import { isEntitled, type Tier } from '../../common/tiers.ts';
import { resources } from '../../db/schema.ts';
import { optionalMember } from '../sessions/session.plugin.ts';

export async function resourcesRoutes(app: FastifyInstance) {
  // A download link is sent only to a member whose tier reaches tier_required.
  app.get('/api/resources', async (request): Promise<Resource[]> => {
    const member = await optionalMember(request);
    const rows = await app.database.select().from(resources).orderBy(asc(resources.position), asc(resources.title));
    return rows.map((row) => {
      const tierRequired = row.tierRequired as Tier;
      const hasDownload = row.downloadUrl !== null && row.downloadUrl !== '';
      return {
        id: row.id,
        title: row.title,
        description: row.description,
        resource_type: row.resourceType as ResourceType,
        tier_required: tierRequired,
        download_url: hasDownload && isEntitled(member?.membershipTier, tierRequired) ? row.downloadUrl : null,
        has_download: hasDownload,
      };
    });
  });
}
