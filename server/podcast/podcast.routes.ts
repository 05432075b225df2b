import { notFound } from '../../common/errors.ts';
import { SuccessResponse } from '../../common/fields.ts';
import {
  AdminEpisodeList,
  AdminPodcastEpisodeList,
  EpisodePage,
  EpisodePageQuery,
  EpisodeParams,
  PodcastEpisodeList,
} from '../../common/podcast.contract.ts';
import { VISITORS_ALIKE as visitors } from '../cache/visitor-cache.ts';
import { sendArtwork } from '../files/artwork.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function podcastRoutes(app: ZodApp) {
  const { podcast, podcastAuthoring } = app.services;
  const staff = { access: 'staff' } as const;

  // SPEC 7: an array, newest first (the home page and dashboard use the first 3): the newest page of
  // it; `Link` names the next page (`?before=`), as GET /api/community/posts does.
  app.get(
    '/api/podcast/episodes',
    { config: visitors, schema: { querystring: EpisodePageQuery, response: withErrors({ 200: PodcastEpisodeList }) } },
    async (request, reply) => arrayPage(request, reply, await podcast.newest(request.query)),
  );

  // The episode list page's data, for other clients: one page, newest first, after `before`.
  app.get(
    '/api/podcast/episodes/pages',
    { config: visitors, schema: { querystring: EpisodePageQuery, response: withErrors({ 200: EpisodePage }) } },
    (request) => podcast.page(request.query),
  );

  // The cover of an episode without uploaded artwork: drawn from its title, season and number.
  app.get('/api/podcast/episodes/:id/artwork.svg', { config: visitors, schema: { params: EpisodeParams } }, async (request, reply) => {
    const episode = await podcast.find(request.params.id);
    if (!episode) throw notFound('Episode not found');
    return sendArtwork(reply, {
      title: episode.title,
      label: `Season ${episode.season} · Episode ${episode.episode}`,
      theme: 'podcast',
      key: episode.id,
      shared: true,
    });
  });

  app.get(
    '/api/admin/podcast/list',
    { config: staff, schema: { response: withErrors({ 200: AdminPodcastEpisodeList }) } },
    async (request) => podcastAuthoring.adminList(await request.viewer()),
  );

  // SPEC 4: the spec's clients send the whole list; episodes left out are deleted. (The Podcasts tab
  // saves one page at a time: podcastAuthoring.savePage.)
  app.post(
    '/api/admin/podcast/update',
    { config: staff, schema: { body: AdminEpisodeList, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await podcastAuthoring.replaceAll(await request.viewer(), request.body);
      return { success: true as const };
    },
  );
}
