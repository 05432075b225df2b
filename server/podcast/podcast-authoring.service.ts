import type { PodcastAuthoringService } from '../../common/podcast.contract.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { publicImageUrl } from '../files/public-image.ts';
import type { DataAccess } from '../repositories.ts';
import type { PodcastRepository } from './podcast.repository.ts';

// Staff's side of the podcast: the Podcasts tab's list, saved whole (SPEC 4 'Save All Changes').

type EpisodeRow = Awaited<ReturnType<PodcastRepository['list']>>[number];

/** Where an episode without uploaded artwork finds its cover. */
const artworkUrl = (episodeId: string) => `/api/podcast/episodes/${episodeId}/artwork.svg`;
const day = (date: Date) => date.toISOString().slice(0, 10);

const toAdminShape = (row: EpisodeRow) => ({
  id: row.id,
  title: row.title,
  spotify_url: row.spotifyUrl,
  audio_url: row.audioUrl,
  description: row.description,
  duration: row.duration,
  season: row.season,
  episode: row.episode,
  published_at: day(row.publishedAt),
  thumbnail: row.thumbnail,
  thumbnail_file_id: row.thumbnailFileId,
});

export function createPodcastAuthoringService(data: DataAccess): PodcastAuthoringService {
  /** The cover of an episode: the uploaded image chosen, or the generated artwork. */
  const artworkFor = async (episodeId: string, fileId: string | null) =>
    fileId ? publicImageUrl(data, fileId, 'thumbnail_file_id', 'artwork') : artworkUrl(episodeId);

  return {
    async adminList(viewer) {
      requireStaffArea(viewer, 'content');
      return (await data.podcast.list()).map(toAdminShape);
    },

    // Existing episodes keep what the list leaves out; a new one goes into the latest season with
    // the next number, published today, with generated artwork unless an image was chosen.
    async replaceAll(viewer, episodes) {
      const staff = requireStaffArea(viewer, 'content');
      const stored = await data.podcast.list();
      const known = new Map(stored.map((row) => [row.id, row]));
      // Artwork is checked before the transaction (the file library is read outside it).
      const artwork = new Map<string, string>();
      for (const episode of episodes) {
        const previous = known.get(episode.id);
        const fileId = episode.thumbnail_file_id === undefined ? (previous?.thumbnailFileId ?? null) : episode.thumbnail_file_id;
        const unchanged = previous && fileId === previous.thumbnailFileId && previous.thumbnail !== '';
        artwork.set(episode.id, unchanged ? previous.thumbnail : await artworkFor(episode.id, fileId));
      }
      let latestSeason = Math.max(1, ...stored.map((row) => row.season));
      const numbered: { season: number; episode: number }[] = [];
      const lastNumber = (season: number) =>
        Math.max(
          0,
          ...stored.filter((row) => row.season === season).map((row) => row.episode),
          ...numbered.filter((n) => n.season === season).map((n) => n.episode),
        );
      await data.transaction(async (tx) => {
        await tx.podcast.deleteAllExcept(episodes.map((episode) => episode.id));
        for (const episode of episodes) {
          const previous = known.get(episode.id);
          const fields = {
            title: episode.title,
            spotifyUrl: episode.spotify_url,
            // SPEC 3: audio_url is kept equal to spotify_url.
            audioUrl: episode.spotify_url,
            description: episode.description,
            duration: episode.duration,
            thumbnail: artwork.get(episode.id)!,
            ...(episode.thumbnail_file_id !== undefined && { thumbnailFileId: episode.thumbnail_file_id }),
            ...(episode.published_at && { publishedAt: new Date(`${episode.published_at}T12:00:00Z`) }),
          };
          if (previous) {
            await tx.podcast.update(episode.id, {
              ...fields,
              season: episode.season ?? previous.season,
              episode: episode.episode ?? previous.episode,
            });
          } else {
            const season = episode.season ?? latestSeason;
            latestSeason = Math.max(latestSeason, season);
            const number = episode.episode ?? lastNumber(season) + 1;
            numbered.push({ season, episode: number });
            await tx.podcast.insert(episode.id, { ...fields, season, episode: number });
          }
        }
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'podcast.update',
          target: 'podcast episodes',
          oldValue: stored.map(toAdminShape),
          newValue: episodes,
        });
      });
    },
  };
}
