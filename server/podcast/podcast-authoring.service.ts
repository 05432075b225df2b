import { PAGE_SIZE } from '../../common/limits.ts';
import type { AdminEpisodeList, PodcastAuthoringService } from '../../common/podcast.contract.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { publicImageUrl } from '../files/public-image.ts';
import { decodeCursor, pageOf } from '../lists/keyset.ts';
import type { DataAccess } from '../repositories.ts';
import { EpisodeCursor } from './episode-cursor.ts';
import type { PodcastRepository } from './podcast.repository.ts';

// Staff's side of the podcast: the Podcasts tab, a page at a time, whose 'Save All Changes' saves the
// page shown (SPEC 4); and the spec's staff API, which reads and replaces the list whole.

type EpisodeRow = NonNullable<Awaited<ReturnType<PodcastRepository['findById']>>>;
type EpisodeInput = AdminEpisodeList[number];

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

/** The stored fields an episode sent by staff sets (season and number are decided apart). */
const fieldsOf = (episode: EpisodeInput, thumbnail: string) => ({
  title: episode.title,
  spotifyUrl: episode.spotify_url,
  // SPEC 3: audio_url is kept equal to spotify_url.
  audioUrl: episode.spotify_url,
  description: episode.description,
  duration: episode.duration,
  thumbnail,
  ...(episode.thumbnail_file_id !== undefined && { thumbnailFileId: episode.thumbnail_file_id }),
  ...(episode.published_at && { publishedAt: new Date(`${episode.published_at}T12:00:00Z`) }),
});

/**
 * Numbers new episodes: in the season given, or the latest one; with the number given, or the next
 * after the highest stored (`lastStored`) and those numbered in this save.
 */
function numberer(latestSeason: number, lastStored: (season: number) => Promise<number>) {
  let latest = latestSeason;
  const numbered: { season: number; episode: number }[] = [];
  return async (episode: EpisodeInput) => {
    const season = episode.season ?? latest;
    latest = Math.max(latest, season);
    const number =
      episode.episode ?? Math.max(await lastStored(season), ...numbered.filter((n) => n.season === season).map((n) => n.episode)) + 1;
    numbered.push({ season, episode: number });
    return { season, episode: number };
  };
}

export function createPodcastAuthoringService(data: DataAccess): PodcastAuthoringService {
  /** The cover of an episode: the uploaded image chosen, or the generated artwork. */
  const artworkFor = async (episodeId: string, fileId: string | null) =>
    fileId ? publicImageUrl(data, fileId, 'thumbnail_file_id', 'artwork') : artworkUrl(episodeId);

  /**
   * The cover of each episode sent, checked before the transaction (the file library is read
   * outside it): an existing episode keeps what the list leaves out.
   */
  async function artworkOf(episodes: AdminEpisodeList, known: Map<string, EpisodeRow>) {
    const artwork = new Map<string, string>();
    for (const episode of episodes) {
      const previous = known.get(episode.id);
      const fileId = episode.thumbnail_file_id === undefined ? (previous?.thumbnailFileId ?? null) : episode.thumbnail_file_id;
      const unchanged = previous && fileId === previous.thumbnailFileId && previous.thumbnail !== '';
      artwork.set(episode.id, unchanged ? previous.thumbnail : await artworkFor(episode.id, fileId));
    }
    return artwork;
  }

  /** Updates the episodes already stored (`known`) and inserts the others, numbered by `number`. */
  async function store(
    podcast: PodcastRepository,
    episodes: AdminEpisodeList,
    known: Map<string, EpisodeRow>,
    artwork: Map<string, string>,
    number: (episode: EpisodeInput) => Promise<{ season: number; episode: number }>,
  ) {
    for (const episode of episodes) {
      const previous = known.get(episode.id);
      const fields = fieldsOf(episode, artwork.get(episode.id)!);
      if (previous) {
        await podcast.update(episode.id, {
          ...fields,
          season: episode.season ?? previous.season,
          episode: episode.episode ?? previous.episode,
        });
      } else {
        await podcast.insert(episode.id, { ...fields, ...(await number(episode)) });
      }
    }
  }

  return {
    async adminList(viewer) {
      requireStaffArea(viewer, 'content');
      return (await data.podcast.list()).map(toAdminShape);
    },

    async adminPage(viewer, query) {
      requireStaffArea(viewer, 'content');
      const before = query.before ? decodeCursor(query.before, EpisodeCursor) : undefined;
      const rows = await data.podcast.newest(PAGE_SIZE.staffList + 1, before && { publishedAt: before[0], id: before[1] });
      return pageOf(rows, PAGE_SIZE.staffList, (row) => [row.publishedKey, row.id], toAdminShape);
    },

    // Existing episodes keep what the list leaves out; a new one goes into the latest season with
    // the next number, published today, with generated artwork unless an image was chosen. Episodes
    // left out of the list are deleted (SPEC 4: the list sent is the whole list).
    async replaceAll(viewer, episodes) {
      const staff = requireStaffArea(viewer, 'content');
      const stored = await data.podcast.list();
      const known = new Map(stored.map((row) => [row.id, row]));
      const artwork = await artworkOf(episodes, known);
      const number = numberer(Math.max(1, ...stored.map((row) => row.season)), async (season) =>
        Math.max(0, ...stored.filter((row) => row.season === season).map((row) => row.episode)),
      );
      await data.transaction(async (tx) => {
        await tx.podcast.deleteAllExcept(episodes.map((episode) => episode.id));
        await store(tx.podcast, episodes, known, artwork, number);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'podcast.update',
          target: 'podcast episodes',
          oldValue: stored.map(toAdminShape),
          newValue: episodes,
        });
      });
    },

    // The tab's page: the episodes sent are saved as replaceAll saves them; of the stored ones, only
    // those the page showed (`pageIds`) and left out are deleted. Episodes of other pages stay as they are.
    async savePage(viewer, pageIds, episodes) {
      const staff = requireStaffArea(viewer, 'content');
      const sent = new Set(episodes.map((episode) => episode.id));
      const stored = await data.podcast.findByIds([...new Set([...pageIds, ...sent])]);
      const known = new Map(stored.map((row) => [row.id, row]));
      const removed = pageIds.filter((id) => !sent.has(id) && known.has(id));
      const artwork = await artworkOf(episodes, known);
      await data.transaction(async (tx) => {
        // Numbers come from the stored episodes of every page, read in the transaction.
        const number = numberer(Math.max(1, (await tx.podcast.latestSeason()) ?? 1), (season) => tx.podcast.lastEpisodeIn(season));
        await store(tx.podcast, episodes, known, artwork, number);
        await tx.podcast.deleteIds(removed);
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
