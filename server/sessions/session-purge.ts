import type { FastifyInstance } from 'fastify';
import { scheduleRepeating } from '../background-work.ts';
import type { RunsAlone } from '../repositories.ts';
import type { SessionService } from './session.service.ts';

/**
 * Deletes sessions that can no longer be used: once shortly after start, then every hour. With
 * several processes on one PostgreSQL, one of them does it at a time.
 */
export function scheduleSessionPurge(app: FastifyInstance, sessions: SessionService, database: RunsAlone) {
  const job = {
    name: 'session-purge' as const,
    onFailure: 'purging expired sessions failed; trying again later',
    alone: database,
  };
  scheduleRepeating(app, job, async () => {
    const removed = await sessions.purgeExpired();
    if (removed > 0) app.log.info({ removed }, 'expired sessions purged');
  });
}
