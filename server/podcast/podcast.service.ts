import { notFound } from '../../common/errors.ts';
import type { PodcastEpisode, PodcastService } from '../../common/podcast.contract.ts';
import type { DataAccess } from '../repositories.ts';
import { EPISODES_PER_PAGE } from '../../common/limits.ts';

// The podcast as everyone hears it (staff edit the list in podcast-authoring.service.ts).

export function createPodcastService(data: DataAccess): PodcastService {
  async function list(): Promise<PodcastEpisode[]> {
    const rows = await data.podcast.list();
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
  }

  return {
    list,

    async page(page) {
      const episodes = await list();
      const pages = Math.max(1, Math.ceil(episodes.length / EPISODES_PER_PAGE));
      if (page > pages) throw notFound('There is no such page of episodes.');
      const start = (page - 1) * EPISODES_PER_PAGE;
      return { episodes: episodes.slice(start, start + EPISODES_PER_PAGE), page, pages, total: episodes.length };
    },

    find: async (id) => (await list()).find((episode) => episode.id === id) ?? null,
  };
}
