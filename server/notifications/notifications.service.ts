import { z } from 'zod';
import { badRequest, conflict, unavailable } from '../../common/errors.ts';
import { NOTIFICATIONS } from '../../common/limits.ts';
import {
  NOTIFICATION_KINDS,
  PUSH_DEVICE_TAKEN,
  PUSH_ENDPOINT_REFUSED,
  PUSH_UNAVAILABLE,
  type NotificationSettings,
  type NotificationsService,
  type NotificationView,
} from '../../common/notifications.contract.ts';
import { notificationTiersOf, requireMember } from '../../common/policies.ts';
import type { SignedInMember } from '../../common/viewer.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { DataAccess } from '../repositories.ts';
import type { NotificationRow } from './notifications.repository.ts';
import { channelsOf } from './notifier.ts';
import { pushEndpointAllowed, type PushSettings } from './push-sender.ts';

// A member's notifications centre: the bell's count, the list (a page at a time, latest first, only
// what their tier reads now), marking read on every device at once, their channel choices and digest,
// and the devices that take their push notifications.

const UpdatedCursor = z.tuple([TimestampKey, z.uuid()]);

function view(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    url: row.url,
    count: row.actorCount,
    read: row.readAt !== null,
    updated_at: row.updatedAt.toISOString(),
  };
}

export function createNotificationsService(deps: { data: DataAccess; push: PushSettings | undefined }): NotificationsService {
  const { data } = deps;

  const unreadOf = (member: SignedInMember) =>
    data.notifications.unread(member.id, notificationTiersOf(member), NOTIFICATIONS.unreadShownUpTo);

  async function settingsOf(member: SignedInMember): Promise<NotificationSettings> {
    const [rows, digest, devices] = await Promise.all([
      data.notifications.preferencesOf(member.id),
      data.notifications.digestOf(member.id),
      data.notifications.countSubscriptions(member.id),
    ]);
    return {
      kinds: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, channelsOf(rows, kind)])) as NotificationSettings['kinds'],
      digest: digest?.digest ?? 'off',
      push: { available: deps.push !== undefined, public_key: deps.push?.publicKey ?? null, devices },
    };
  }

  return {
    async page(viewer, query = {}) {
      const member = requireMember(viewer);
      const before = query.before ? decodeCursor(query.before, UpdatedCursor) : undefined;
      const [rows, unread] = await Promise.all([
        data.notifications.page(
          member.id,
          notificationTiersOf(member),
          NOTIFICATIONS.pageSize + 1,
          before && { updatedAt: before[0], id: before[1] },
        ),
        unreadOf(member),
      ]);
      return {
        ...pageOf(
          rows,
          NOTIFICATIONS.pageSize,
          (row) => [row.updatedKey, row.row.id],
          (row) => view(row.row),
        ),
        unread,
      };
    },

    unread: (viewer) => unreadOf(requireMember(viewer)),

    async markRead(viewer, ids) {
      const member = requireMember(viewer);
      // In a transaction, so the count read next is this process's fresh one, never the count kept from before.
      await data.transaction((tx) => tx.notifications.markRead(member.id, ids));
      return unreadOf(member);
    },

    async open(viewer, id) {
      const member = requireMember(viewer);
      const row = await data.notifications.find(id);
      if (!row || row.memberId !== member.id) return null;
      await data.transaction((tx) => tx.notifications.markRead(member.id, [id]));
      return row.url;
    },

    settings: (viewer) => settingsOf(requireMember(viewer)),

    async savePreferences(viewer, input) {
      const member = requireMember(viewer);
      await data.transaction(async (tx) => {
        await tx.notifications.savePreferences(
          member.id,
          NOTIFICATION_KINDS.map((kind) => ({ kind, ...input.kinds[kind] })),
        );
        await tx.notifications.setDigest(member.id, input.digest);
      });
      return settingsOf(member);
    },

    async subscribePush(viewer, input) {
      const member = requireMember(viewer);
      if (!deps.push) throw unavailable(PUSH_UNAVAILABLE);
      if (!pushEndpointAllowed(input.endpoint, deps.push.serviceOrigins)) throw badRequest(PUSH_ENDPOINT_REFUSED, 'endpoint');
      // An endpoint names a device, not an account: one registered by another member stays theirs (a
      // device changes hands when its member signs out there, which gives it a new endpoint).
      const owner = await data.notifications.subscriptionOwner(input.endpoint);
      if (owner !== null && owner !== member.id) throw conflict(PUSH_DEVICE_TAKEN);
      if (owner === null && (await data.notifications.countSubscriptions(member.id)) >= NOTIFICATIONS.maxDevices)
        throw badRequest(`Push notifications go to ${NOTIFICATIONS.maxDevices} devices at most: turn them off on one first.`);
      const saved = await data.notifications.addSubscription({
        memberId: member.id,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        userAgent: viewer.client.userAgent?.slice(0, 300) ?? null,
        sessionId: member.sessionId,
      });
      if (!saved) throw conflict(PUSH_DEVICE_TAKEN);
    },

    async unsubscribePush(viewer, endpoint) {
      const member = requireMember(viewer);
      await data.notifications.removeSubscription(member.id, endpoint);
    },
  };
}
