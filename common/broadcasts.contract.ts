import { z } from 'zod';
import { parseBroadcast, type Block } from './broadcast-markup.ts';
import { requiredText, slugParam } from './fields.ts';
import { BROADCASTS, TEXT_MAX } from './limits.ts';
import type { BeforeQuery, Paged } from './paging.ts';
import { Tier } from './tiers.ts';
import type { Viewer } from './viewer.ts';

// Email broadcasts: staff write to the members of chosen tiers (those who did not unsubscribe), now
// or at a time; each member gets it once, with only the sections their tier reaches; past broadcasts
// stay readable on the site by the tiers they were for.

export const BROADCAST_NOT_FOUND = 'Broadcast not found';
export const BROADCAST_STATUSES = ['draft', 'scheduled', 'sending', 'sent'] as const;

export const BroadcastInput = z.object({
  subject: requiredText('Subject', TEXT_MAX.broadcastSubject),
  body: requiredText('Text', TEXT_MAX.broadcastBody, { multiline: true }).superRefine((body, context) => {
    try {
      parseBroadcast(body);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
    }
  }),
  audience: z
    .array(Tier, { error: 'Choose the tiers it goes to' })
    .min(1, 'Choose at least one tier it goes to')
    .refine((tiers) => new Set(tiers).size === tiers.length, 'Choose each tier once'),
  /** Only members enrolled in this course (null: any). */
  course_id: slugParam('Course').nullable().default(null),
  /** Only the agents holding a seat in this team (null: any). */
  team_id: z.uuid({ error: 'Choose a team from the list' }).nullable().default(null),
  /** Only members not seen on the site for this many days (null: any). */
  inactive_days: z.coerce
    .number({ error: 'Inactive days must be a number' })
    .int('Inactive days must be whole days')
    .min(1, 'Inactive days must be at least 1')
    .max(BROADCASTS.maxInactiveDays, `Inactive days must be at most ${BROADCASTS.maxInactiveDays}`)
    .nullable()
    .default(null),
});
export type BroadcastInput = z.infer<typeof BroadcastInput>;

/** Send now (no time), or at a time to come. */
export const SendInput = z.object({
  send_at: z.iso.datetime({ offset: true, error: 'Choose a date and time to send it' }).nullable().default(null),
});
export type SendInput = z.infer<typeof SendInput>;

export const StaffBroadcast = z.object({
  id: z.string(),
  subject: z.string(),
  body: z.string(),
  audience: z.array(Tier),
  course_id: z.string().nullable(),
  team_id: z.string().nullable(),
  inactive_days: z.number().int().nullable(),
  status: z.enum(BROADCAST_STATUSES),
  send_at: z.string().nullable(),
  sent_count: z.number().int(),
  delivered_count: z.number().int(),
  failed_count: z.number().int(),
  /** Members the broadcast reached who have unsubscribed since. */
  unsubscribed_count: z.number().int(),
  clicks: z.number().int(),
  created_by: z.string(),
  created_at: z.string(),
});
export type StaffBroadcast = z.infer<typeof StaffBroadcast>;

/** A sent broadcast as a member reads it on the site: only the sections their tier reaches. */
export const MemberBroadcast = z.object({
  id: z.string(),
  subject: z.string(),
  sent_at: z.string(),
  blocks: z.array(z.custom<Block>()),
});
export type MemberBroadcast = z.infer<typeof MemberBroadcast>;

export interface BroadcastsService {
  // Staff
  list(viewer: Viewer, query?: BeforeQuery): Promise<Paged<StaffBroadcast>>;
  create(viewer: Viewer, input: BroadcastInput): Promise<StaffBroadcast>;
  /** The teams a broadcast may go to (the latest few), to choose from. */
  teamChoices(viewer: Viewer): Promise<{ id: string; name: string }[]>;
  update(viewer: Viewer, id: string, input: BroadcastInput): Promise<StaffBroadcast>;
  /** What a member of each tier would get: the mail's blocks per tier. */
  preview(viewer: Viewer, id: string): Promise<Record<Tier, Block[]>>;
  /** Mails the broadcast, as a member of its highest tier gets it, to the staff member alone. */
  sendTest(viewer: Viewer, id: string): Promise<void>;
  send(viewer: Viewer, id: string, input: SendInput): Promise<StaffBroadcast>;
  // Members
  past(viewer: Viewer, query?: BeforeQuery): Promise<Paged<MemberBroadcast>>;
  read(viewer: Viewer, id: string): Promise<MemberBroadcast>;
  /** Counts a click on one of the broadcast's links and gives its address; null for a link it does not hold. */
  click(id: string, to: string): Promise<string | null>;
}
