import { z } from 'zod';
import { DEFAULT_EPISODE_DURATION } from './limits.ts';
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
});
export type AdminPodcastEpisode = z.infer<typeof AdminPodcastEpisode>;
export const AdminPodcastEpisodeList = z.array(AdminPodcastEpisode);

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), `${label} must not contain control characters`);

/** SPEC 3 admin episode; SPEC 5: adding an episode has no checks, empty fields are allowed. */
const AdminEpisodeInput = z.object({
  id: z
    .string({ error: 'Every episode needs an id' })
    .trim()
    .min(1, 'Every episode needs an id')
    .max(64, 'Episode ids are at most 64 characters')
    .regex(/^[A-Za-z0-9_-]+$/, 'Episode ids may only hold letters, digits, dashes and underscores'),
  title: text('Title', 300).default(''),
  spotify_url: text('Spotify URL', 500).default(''),
  audio_url: text('Audio URL', 500).optional(),
  description: text('Description', 5000).default(''),
  duration: text('Duration', 20).default(DEFAULT_EPISODE_DURATION),
});

export const AdminEpisodeList = z
  .array(AdminEpisodeInput, { error: 'Send the whole list of episodes as an array' })
  .max(1000, 'At most 1000 episodes')
  .refine((episodes) => new Set(episodes.map((episode) => episode.id)).size === episodes.length, 'Two episodes have the same id');
export type AdminEpisodeList = z.infer<typeof AdminEpisodeList>;

/** The Podcasts tab's 'Save All Changes': the whole list, as JSON in one form field. */
export const AdminEpisodeListForm = z.object({
  episodes: z
    .string({ error: 'Send the whole list of episodes.' })
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'The list of episodes is not valid JSON.' });
        return z.NEVER;
      }
    })
    .pipe(AdminEpisodeList),
});

export interface PodcastService {
  /** SPEC 7: newest first; the podcast is free for everyone. */
  list(): Promise<PodcastEpisode[]>;
  adminList(viewer: Viewer): Promise<AdminPodcastEpisode[]>;
  /** SPEC 4: 'Save All Changes' replaces the stored list with the one sent, in one transaction. */
  replaceAll(viewer: Viewer, episodes: AdminEpisodeList): Promise<void>;
}
