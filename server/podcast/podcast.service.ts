import type { PodcastEpisode, PodcastService } from '../../common/podcast.contract.ts';
import { EPISODES_PER_PAGE, PAGE_SIZE } from '../../common/limits.ts';
import type { BeforeQuery } from '../../common/paging.ts';
import { decodeCursor, pageOf } from '../lists/keyset.ts';
import type { DataAccess } from '../repositories.ts';
import { EpisodeCursor } from './episode-cursor.ts';

// The podcast as everyone hears it (staff edit it in podcast-authoring.service.ts): read a page at
// a time, newest first, after the last episode shown (docs/decisions/013).

type EpisodeRow = NonNullable<Awaited<ReturnType<DataAccess['podcast']['findById']>>>;

const publicShape = (row: EpisodeRow): PodcastEpisode => ({
  id: row.id,
  title: row.title,
  description: row.description,
  thumbnail: row.thumbnail,
  season: row.season,
  episode: row.episode,
  duration: row.duration,
  spotify_url: row.spotifyUrl,
  published_at: row.publishedAt.toISOString(),
});

export function createPodcastService(data: DataAccess): PodcastService {
  /** `size` episodes newest first after the cursor's, and the cursor of the next page. */
  async function newest(size: number, query: BeforeQuery) {
    const before = query.before ? decodeCursor(query.before, EpisodeCursor) : undefined;
    const rows = await data.podcast.newest(size + 1, before && { publishedAt: before[0], id: before[1] });
    return pageOf(rows, size, (row) => [row.publishedKey, row.id], publicShape);
  }

  return {
    list: async () => (await newest(PAGE_SIZE.episodes, {})).items,

    newest: (query) => newest(PAGE_SIZE.episodes, query),

    async page(query) {
      const [page, total] = await Promise.all([newest(EPISODES_PER_PAGE, query), data.podcast.count()]);
      return { episodes: page.items, next_cursor: page.next_cursor, total };
    },

    async find(id) {
      const row = await data.podcast.findById(id);
      return row ? publicShape(row) : null;
    },
  };
}
