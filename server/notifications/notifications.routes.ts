import { SuccessResponse } from '../../common/fields.ts';
import {
  MarkReadInput,
  NotificationPage,
  NotificationPreferences,
  NotificationSettings,
  NotificationsQuery,
  PushSubscriptionInput,
  PushUnsubscribeInput,
  UnreadCount,
} from '../../common/notifications.contract.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function notificationsRoutes(app: ZodApp) {
  const { notifications } = app.services;
  const member = { access: 'member' } as const;

  app.get(
    '/api/notifications',
    { config: member, schema: { querystring: NotificationsQuery, response: withErrors({ 200: NotificationPage }) } },
    async (request) => notifications.page(await request.viewer(), request.query),
  );

  app.get('/api/notifications/unread', { config: member, schema: { response: withErrors({ 200: UnreadCount }) } }, async (request) => ({
    unread: await notifications.unread(await request.viewer()),
  }));

  // Read on one device, read on all: the mark is the member's, on the server.
  app.post(
    '/api/notifications/read',
    { config: member, schema: { body: MarkReadInput, response: withErrors({ 200: UnreadCount }) } },
    async (request) => ({ unread: await notifications.markRead(await request.viewer(), request.body.ids) }),
  );

  app.get(
    '/api/notifications/settings',
    { config: member, schema: { response: withErrors({ 200: NotificationSettings }) } },
    async (request) => notifications.settings(await request.viewer()),
  );

  app.put(
    '/api/notifications/settings',
    { config: member, schema: { body: NotificationPreferences, response: withErrors({ 200: NotificationSettings }) } },
    async (request) => notifications.savePreferences(await request.viewer(), request.body),
  );

  app.post(
    '/api/push/subscriptions',
    { config: member, schema: { body: PushSubscriptionInput, response: withErrors({ 201: SuccessResponse }) } },
    async (request, reply) => {
      await notifications.subscribePush(await request.viewer(), request.body);
      return reply.status(201).send({ success: true as const });
    },
  );

  app.delete(
    '/api/push/subscriptions',
    { config: member, schema: { body: PushUnsubscribeInput, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await notifications.unsubscribePush(await request.viewer(), request.body.endpoint);
      return { success: true as const };
    },
  );
}
