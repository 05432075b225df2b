import { z } from 'zod';
import { normaliseLineBreaks, slugParam, textRule, uuidParam, type TextLines } from './fields.ts';
import { DEFAULT_EPISODE_DURATION, PAGE_SIZE, PODCAST_EPISODE, PODCAST_EPISODES_MAX, TEXT_MAX } from './limits.ts';
import { BeforeQuery, type Paged } from './paging.ts';
import { spotifyEpisodeId } from './spotify.ts';
import type { Viewer } from './viewer.ts';

/** SPEC 3 Podcast episode (public shape). */
export const PodcastEpisode = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  thumbnail: z.string(),
  season: z.number().int(),
  episode: z.number().int(),
  duration: z.string(),
  spotify_url: z.string(),
  published_at: z.string(),
});
export type PodcastEpisode = z.infer<typeof PodcastEpisode>;
export const PodcastEpisodeList = z.array(PodcastEpisode);

/** SPEC 3 Podcast episode (admin shape). */
export const AdminPodcastEpisode = z.object({
  id: z.string(),
  title: z.string(),
  spotify_url: z.string(),
  audio_url: z.string(),
  description: z.string(),
  duration: z.string(),
  season: z.number().int(),
  episode: z.number().int(),
  /** YYYY-MM-DD; the lists are ordered by it, newest first. */
  published_at: z.string(),
  thumbnail: z.string(),
  /** The uploaded artwork (a public image of the file library); null for the generated one. */
  thumbnail_file_id: z.string().nullable(),
});
export type AdminPodcastEpisode = z.infer<typeof AdminPodcastEpisode>;
export const AdminPodcastEpisodeList = z.array(AdminPodcastEpisode);

const text = (label: string, max: number, lines: TextLines = {}) =>
  z
    .string({ error: `${label} must be text` })
    .overwrite((value) => (lines.multiline ? normaliseLineBreaks(value) : value))
    .max(max, `${label} must be at most ${max} characters`)
    .superRefine(textRule(label, lines));

export const EPISODE_TITLE_REQUIRED = 'Every episode needs a title';
export const SPOTIFY_EPISODE_URL_INVALID = 'Spotify Episode URL must be a Spotify episode link, like https://open.spotify.com/episode/…';

/**
 * SPEC 3 admin episode. Unlike SPEC 5's form without checks, an episode needs a title and a
 * Spotify URL that is empty or an episode's: a blank episode once went to the top of the home page.
 */
const AdminEpisodeInput = z.object({
  id: z
    .string({ error: 'Every episode needs an id' })
    .trim()
    .min(1, 'Every episode needs an id')
    .max(PODCAST_EPISODE.idLength, `Episode ids are at most ${PODCAST_EPISODE.idLength} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, 'Episode ids may only hold letters, digits, dashes and underscores'),
  title: text('Title', TEXT_MAX.episodeTitle)
    .default('')
    .refine((title) => title.trim() !== '', EPISODE_TITLE_REQUIRED),
  spotify_url: text('Spotify URL', TEXT_MAX.link)
    .default('')
    .refine((url) => url.trim() === '' || spotifyEpisodeId(url) !== null, SPOTIFY_EPISODE_URL_INVALID),
  audio_url: text('Audio URL', TEXT_MAX.link).optional(),
  description: text('Description', TEXT_MAX.episodeDescription, { multiline: true }).default(''),
  duration: text('Duration', TEXT_MAX.episodeDuration).default(DEFAULT_EPISODE_DURATION),
  /** Left out for a new episode: the latest season, and the next number in it. */
  season: z
    .number({ error: 'Season must be a number' })
    .int('Season must be a whole number')
    .min(1, 'Season must be 1 or more')
    .max(PODCAST_EPISODE.maxSeason)
    .optional(),
  episode: z
    .number({ error: 'Episode must be a number' })
    .int('Episode must be a whole number')
    .min(1, 'Episode must be 1 or more')
    .max(PODCAST_EPISODE.maxNumber)
    .optional(),
  /** Left out for a new episode: today. */
  published_at: z.iso.date('Published date must be a date (YYYY-MM-DD)').optional(),
  thumbnail_file_id: uuidParam('Artwork').nullable().optional(),
});

export const AdminEpisodeList = z
  .array(AdminEpisodeInput, { error: 'Send the whole list of episodes as an array' })
  .max(PODCAST_EPISODES_MAX, `At most ${PODCAST_EPISODES_MAX} episodes`)
  .refine((episodes) => new Set(episodes.map((episode) => episode.id)).size === episodes.length, 'Two episodes have the same id');
export type AdminEpisodeList = z.infer<typeof AdminEpisodeList>;

/** A form field holding JSON, read with `schema`. */
const jsonField = <S extends z.ZodType>(missing: string, invalid: string, schema: S) =>
  z
    .string({ error: missing })
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: invalid });
        return z.NEVER;
      }
    })
    .pipe(schema);

/**
 * The Podcasts tab's 'Save All Changes': the episodes of the page shown (edited, and any added), and
 * the ids the page showed when it loaded, so that only episodes of that page are ever deleted.
 */
export const AdminEpisodePageForm = z.object({
  episodes: jsonField('Send the episodes of the page.', 'The list of episodes is not valid JSON.', AdminEpisodeList),
  page_ids: jsonField(
    'Send the ids of the episodes the page showed.',
    'The ids of the page are not valid JSON.',
    z
      .array(z.string().min(1).max(PODCAST_EPISODE.idLength), { error: 'Send the ids of the page as an array' })
      .max(PAGE_SIZE.staffList, `A page shows at most ${PAGE_SIZE.staffList} episodes`),
  ),
});

/** `?before=`: the episodes after the last one shown, newest first (docs/decisions/013). */
export const EpisodePageQuery = BeforeQuery;
export type EpisodePageQuery = BeforeQuery;

/** A page of the episodes list: the next one starts at `next_cursor` (null on the last page). */
export const EpisodePage = z.object({
  episodes: PodcastEpisodeList,
  next_cursor: z.string().nullable(),
  total: z.number().int(),
});
export type EpisodePage = z.infer<typeof EpisodePage>;

export const EpisodeParams = z.object({ id: slugParam('Episode id') });

export interface PodcastService {
  /** SPEC 7: the newest episodes (one page, `PAGE_SIZE.episodes`); the podcast is free for everyone. */
  list(): Promise<PodcastEpisode[]>;
  /** The newest episodes after `before` (`GET /api/podcast/episodes`, an array with a `Link` to the next page). */
  newest(query: EpisodePageQuery): Promise<Paged<PodcastEpisode>>;
  /** A page of the episodes list (`EPISODES_PER_PAGE`), newest first, after `before`; a broken cursor is a 400. */
  page(query: EpisodePageQuery): Promise<EpisodePage>;
  /** The episode, or null. */
  find(id: string): Promise<PodcastEpisode | null>;
}

/** Staff's side: the Podcasts tab, and the spec's staff API. */
export interface PodcastAuthoringService {
  /** SPEC 3 `GET /api/admin/podcast/list`: every episode, as the spec's clients read and send it back. */
  adminList(viewer: Viewer): Promise<AdminPodcastEpisode[]>;
  /** The Podcasts tab: a page of episodes (`PAGE_SIZE.staffList`), newest first, after `before`. */
  adminPage(viewer: Viewer, query: EpisodePageQuery): Promise<Paged<AdminPodcastEpisode>>;
  /** SPEC 4 `POST /api/admin/podcast/update`: replaces the stored list with the one sent, in one transaction. */
  replaceAll(viewer: Viewer, episodes: AdminEpisodeList): Promise<void>;
  /**
   * The tab's 'Save All Changes': saves the episodes of one page (updated or added) and deletes the
   * episodes of `pageIds` left out of them, never any other, in one transaction.
   */
  savePage(viewer: Viewer, pageIds: readonly string[], episodes: AdminEpisodeList): Promise<void>;
}
