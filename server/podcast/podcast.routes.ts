import { SuccessResponse } from '../../common/fields.ts';
import { AdminEpisodeList, AdminPodcastEpisodeList, PodcastEpisodeList } from '../../common/podcast.contract.ts';
import { VISITORS_ALIKE as visitors } from '../cache/visitor-cache.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function podcastRoutes(app: ZodApp) {
  const { podcast } = app.services;
  const staff = { access: 'staff' } as const;

  app.get('/api/podcast/episodes', { config: visitors, schema: { response: withErrors({ 200: PodcastEpisodeList }) } }, () =>
    podcast.list(),
  );

  app.get(
    '/api/admin/podcast/list',
    { config: staff, schema: { response: withErrors({ 200: AdminPodcastEpisodeList }) } },
    async (request) => podcast.adminList(await request.viewer()),
  );

  // SPEC 4: 'Save All Changes' sends the whole list.
  app.post(
    '/api/admin/podcast/update',
    { config: staff, schema: { body: AdminEpisodeList, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await podcast.replaceAll(await request.viewer(), request.body);
      return { success: true as const };
    },
  );
}
