import type { PodcastService } from '../../common/podcast.contract.ts';
import { requireStaff } from '../../common/viewer.ts';
import type { DataAccess } from '../repositories.ts';
import type { PodcastRepository } from './podcast.repository.ts';

type EpisodeRow = Awaited<ReturnType<PodcastRepository['list']>>[number];

const toAdminShape = (row: EpisodeRow) => ({
  id: row.id,
  title: row.title,
  spotify_url: row.spotifyUrl,
  audio_url: row.audioUrl,
  description: row.description,
  duration: row.duration,
});

export function createPodcastService(data: DataAccess): PodcastService {
  return {
    async list() {
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
    },

    async adminList(viewer) {
      requireStaff(viewer);
      return (await data.podcast.list()).map(toAdminShape);
    },

    // Existing episodes keep their publication date, season and number; new ones are published now.
    async replaceAll(viewer, episodes) {
      const staff = requireStaff(viewer);
      await data.transaction(async (tx) => {
        const before = (await tx.podcast.list()).map(toAdminShape);
        await tx.podcast.deleteAllExcept(episodes.map((episode) => episode.id));
        for (const episode of episodes) {
          await tx.podcast.upsert(episode.id, {
            title: episode.title,
            spotifyUrl: episode.spotify_url,
            // SPEC 3: audio_url is kept equal to spotify_url.
            audioUrl: episode.spotify_url,
            description: episode.description,
            duration: episode.duration,
          });
        }
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'podcast.update',
          target: 'podcast episodes',
          oldValue: before,
          newValue: episodes,
        });
      });
    },
  };
}
