import { desc, notInArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AdminEpisodeList } from '../../common/admin.ts';
import type { AdminPodcastEpisode } from '../../common/catalogue.ts';
import { podcastEpisodes } from '../../db/schema.ts';
import { parseInput } from '../http/errors.ts';
import { requireStaff } from '../sessions/session.plugin.ts';
import { recordAudit } from './audit.ts';

const toAdminShape = (row: typeof podcastEpisodes.$inferSelect): AdminPodcastEpisode => ({
  id: row.id,
  title: row.title,
  spotify_url: row.spotifyUrl,
  audio_url: row.audioUrl,
  description: row.description,
  duration: row.duration,
});

export async function adminPodcastRoutes(app: FastifyInstance) {
  const list = async () =>
    (await app.database.select().from(podcastEpisodes).orderBy(desc(podcastEpisodes.publishedAt), desc(podcastEpisodes.id))).map(
      toAdminShape,
    );

  app.get('/api/admin/podcast/list', async () => list());

  // SPEC 4: 'Save All Changes' sends the whole list; it replaces the stored list in one transaction.
  // Existing episodes keep their publication date, season and number; new ones are published now.
  app.post('/api/admin/podcast/update', async (request) => {
    const staff = await requireStaff(request);
    const episodes = parseInput(AdminEpisodeList, request.body);
    const before = await list();
    await app.database.transaction(async (tx) => {
      const ids = episodes.map((episode) => episode.id);
      if (ids.length === 0) await tx.delete(podcastEpisodes);
      else await tx.delete(podcastEpisodes).where(notInArray(podcastEpisodes.id, ids));
      for (const episode of episodes) {
        const values = {
          title: episode.title,
          spotifyUrl: episode.spotify_url,
          // SPEC 3: audio_url is kept equal to spotify_url.
          audioUrl: episode.spotify_url,
          description: episode.description,
          duration: episode.duration,
        };
        await tx
          .insert(podcastEpisodes)
          .values({ id: episode.id, ...values })
          .onConflictDoUpdate({ target: podcastEpisodes.id, set: values });
      }
      await recordAudit(tx, {
        actorEmail: staff.email,
        action: 'podcast.update',
        target: 'podcast episodes',
        oldValue: before,
        newValue: episodes,
      });
    });
    return { success: true };
  });
}
