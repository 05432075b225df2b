import { z } from 'zod';
import { TIERS } from './tiers.ts';

// Shapes of the admin calls (SPEC 3 and 7), shared by the admin screens and the server.

export const AdminLoginInput = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(254)
    .pipe(z.email('Please enter a valid email address')),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
});

const text = (label: string, max: number) =>
  z.string({ error: `${label} must be text` }).max(max, `${label} must be at most ${max} characters`);

/** SPEC 3 admin episode; SPEC 5: adding an episode has no checks, empty fields are allowed. */
export const AdminEpisodeInput = z.object({
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
  duration: text('Duration', 20).default('45:00'),
});

export const AdminEpisodeList = z
  .array(AdminEpisodeInput, { error: 'Send the whole list of episodes as an array' })
  .max(1000, 'At most 1000 episodes')
  .refine((episodes) => new Set(episodes.map((episode) => episode.id)).size === episodes.length, 'Two episodes have the same id');

/** SPEC 3 upload folders; course-materials is the default. */
export const UPLOAD_FOLDERS = [
  { value: 'course-materials', label: 'Course Materials' },
  { value: 'ebooks', label: 'eBooks' },
  { value: 'templates', label: 'Templates' },
  { value: 'images', label: 'Images' },
  { value: 'videos', label: 'Videos' },
] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number]['value'];
export const DEFAULT_UPLOAD_FOLDER: UploadFolder = 'course-materials';
export const isUploadFolder = (value: unknown): value is UploadFolder =>
  typeof value === 'string' && UPLOAD_FOLDERS.some((folder) => folder.value === value);

export const CONTENT_VALUE_MAX = 5000;

export const MemberTierInput = z.object({ membership_tier: z.enum(TIERS, { error: 'Tier must be free, bronze, silver or gold' }) });

/** One row of the audit log as the Activity tab shows it. */
export interface AuditEntry {
  id: number;
  actor_email: string;
  action: string;
  target: string;
  old_value: unknown;
  new_value: unknown;
  created_at: string;
}
