import type { FastifyInstance } from 'fastify';
import { staffOnly } from '../sessions/session.plugin.ts';
import { adminContentRoutes } from './admin-content.routes.ts';
import { adminFilesRoutes } from './admin-files.routes.ts';
import { adminMembersRoutes } from './admin-members.routes.ts';
import { adminMessagesRoutes } from './admin-messages.routes.ts';
import { adminPodcastRoutes } from './admin-podcast.routes.ts';

/**
 * Every admin call in here requires a staff session, checked on the server before the handler runs
 * (401 without one, 403 for a member's session). Login and the public content counts live outside.
 */
export async function adminPlugin(app: FastifyInstance) {
  app.addHook('preHandler', staffOnly);
  await app.register(adminPodcastRoutes);
  await app.register(adminContentRoutes);
  await app.register(adminFilesRoutes);
  await app.register(adminMembersRoutes);
  await app.register(adminMessagesRoutes);
}
