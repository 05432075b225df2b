import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { PodcastEpisode } from '../../common/catalogue.ts';
import { podcastEpisodes } from '../../db/schema.ts';

export async function podcastRoutes(app: FastifyInstance) {
  // SPEC 7: newest first; the podcast is free for everyone.
  app.get('/api/podcast/episodes', async (): Promise<PodcastEpisode[]> => {
    const rows = await app.database.select().from(podcastEpisodes).orderBy(desc(podcastEpisodes.publishedAt), desc(podcastEpisodes.id));
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      description: row.description,
      thumbnail: row.thumbnail,
      season: row.season,
      episode: row.episode,
      duration: row.duration,
      spotify_url: row.spotifyUrl,
      published_at: row.publishedAt.toISOString(),
    }));
  });
}
