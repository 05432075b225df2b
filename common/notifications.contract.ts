import { z } from 'zod';
import { cursorParam } from './fields.ts';
import { BRAND_NAME } from './brand.ts';
import type { Paged } from './paging.ts';
import type { Viewer } from './viewer.ts';

// The notifications centre: what happened that concerns a member (a reply, a mention, likes, a new
// session or recording, a reminder, a new course in their plan, a broadcast), on the site (the bell),
// by email and by web push, as each member chooses per kind.

export const NOTIFICATION_KINDS = ['reply', 'mention', 'like', 'session', 'recording', 'reminder', 'course', 'broadcast'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_CHANNELS = ['site', 'email', 'push'] as const;
type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export type ChannelChoice = Record<NotificationChannel, boolean>;

/** What each kind is called on the settings page, and what a member gets until they choose. */
export const NOTIFICATION_KIND_INFO: Record<NotificationKind, { label: string; defaults: ChannelChoice }> = {
  reply: { label: 'Replies to your discussions and replies', defaults: { site: true, email: true, push: true } },
  mention: { label: 'Mentions of you (@name) in the community', defaults: { site: true, email: true, push: true } },
  like: { label: 'Likes of your discussions (grouped)', defaults: { site: true, email: false, push: false } },
  session: { label: 'New live sessions and events for your plan', defaults: { site: true, email: false, push: true } },
  recording: { label: 'New recordings of sessions', defaults: { site: true, email: false, push: false } },
  reminder: { label: 'Reminders of your goals and sessions', defaults: { site: true, email: true, push: true } },
  course: { label: 'New courses in your plan', defaults: { site: true, email: true, push: false } },
  broadcast: { label: `Messages from the ${BRAND_NAME} team`, defaults: { site: true, email: true, push: false } },
};

/** The kinds a community digest gathers instead of one mail each. */
export const COMMUNITY_KINDS: readonly NotificationKind[] = ['reply', 'mention', 'like'];

export const DIGESTS = ['off', 'daily', 'weekly'] as const;

export const NotificationView = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  /** Where it leads on the site (a path). */
  url: z.string(),
  /** For grouped likes: how many liked since the member last read it. */
  count: z.number().int(),
  read: z.boolean(),
  updated_at: z.string(),
});
export type NotificationView = z.infer<typeof NotificationView>;

export const NotificationPage = z.object({
  items: z.array(NotificationView),
  next_cursor: z.string().nullable(),
  unread: z.number().int(),
});
export type NotificationPage = z.infer<typeof NotificationPage>;

export const UnreadCount = z.object({ unread: z.number().int() });

export const NotificationsQuery = z.object({ before: cursorParam().optional() });
export type NotificationsQuery = z.infer<typeof NotificationsQuery>;

export const MarkReadInput = z.object({
  /** The notifications read; none means every one. */
  ids: z
    .array(z.uuid({ error: 'Choose notifications by their id' }))
    .max(100, 'Mark at most 100 at a time')
    .optional(),
});
export type MarkReadInput = z.infer<typeof MarkReadInput>;

const Channels = z.object({ site: z.boolean(), email: z.boolean(), push: z.boolean() });

export const NotificationPreferences = z.object({
  kinds: z.object(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, Channels])) as Record<NotificationKind, typeof Channels>),
  digest: z.enum(DIGESTS, { error: 'Digest must be off, daily or weekly' }),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

export const NotificationSettings = NotificationPreferences.extend({
  push: z.object({
    /** Whether this site can send push notifications (its keys are set). */
    available: z.boolean(),
    /** The VAPID public key a browser subscribes with (base64url), when available. */
    public_key: z.string().nullable(),
    /** How many devices of the member receive push notifications now. */
    devices: z.number().int(),
  }),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/** A browser's push subscription, as `PushSubscription.toJSON()` gives it. */
export const PushSubscriptionInput = z.object({
  endpoint: z.url({ error: 'The push subscription needs its endpoint address' }).max(1000, 'The endpoint address is too long'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: z
        .string()
        .regex(/^[A-Za-z0-9_-]{80,100}$/, 'The subscription key (p256dh) is not a browser push key')
        .max(100),
      auth: z
        .string()
        .regex(/^[A-Za-z0-9_-]{16,32}$/, 'The subscription secret (auth) is not a browser push secret')
        .max(32),
    },
    { error: 'The push subscription needs its keys' },
  ),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

export const PushUnsubscribeInput = z.object({ endpoint: z.url({ error: 'Give the endpoint address to stop' }).max(1000) });

export const PUSH_ENDPOINT_REFUSED = 'This push service is not one the site sends to. Use a current browser’s own push service.';
export const PUSH_UNAVAILABLE = 'Push notifications are not set up on this site yet.';
/** A device takes one account's pushes: another member's endpoint is never moved to the one asking (409). */
export const PUSH_DEVICE_TAKEN =
  'This device already takes the push notifications of another account. Sign out of that account here (or turn its push off), then turn push on again.';

export interface NotificationsService {
  page(viewer: Viewer, query?: NotificationsQuery): Promise<Paged<NotificationView> & { unread: number }>;
  unread(viewer: Viewer): Promise<number>;
  markRead(viewer: Viewer, ids?: string[]): Promise<number>;
  /** Marks one read and answers where it leads (the bell's link), or null when it is not the member's. */
  open(viewer: Viewer, id: string): Promise<string | null>;
  settings(viewer: Viewer): Promise<NotificationSettings>;
  savePreferences(viewer: Viewer, input: NotificationPreferences): Promise<NotificationSettings>;
  subscribePush(viewer: Viewer, input: PushSubscriptionInput): Promise<void>;
  unsubscribePush(viewer: Viewer, endpoint: string): Promise<void>;
}
