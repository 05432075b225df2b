import { CommunityPostList } from '../../common/community.contract.ts';
import { VISITORS_ALIKE as visitors } from '../cache/visitor-cache.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function communityRoutes(app: ZodApp) {
  const { community } = app.services;
  app.get('/api/community/posts', { config: visitors, schema: { response: withErrors({ 200: CommunityPostList }) } }, async (request) =>
    community.list(await request.viewer()),
  );
}
