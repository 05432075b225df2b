import type { FastifyInstance } from 'fastify';
import { loggableError } from '../loggable-error.ts';
import type { RunsAlone } from '../repositories.ts';
import type { SessionService } from './session.service.ts';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes sessions that can no longer be used: once shortly after start, then every hour. With
 * several processes on one PostgreSQL, one of them does it at a time.
 */
export function scheduleSessionPurge(app: FastifyInstance, sessions: SessionService, database: RunsAlone) {
  const purge = async () => {
    try {
      let removed = 0;
      await database.runAlone('session-purge', async () => {
        removed = await sessions.purgeExpired();
      });
      if (removed > 0) app.log.info({ removed }, 'expired sessions purged');
    } catch (error) {
      app.log.warn({ err: loggableError(error) }, 'purging expired sessions failed; trying again later');
    }
  };
  const first = setTimeout(() => void purge(), 1000);
  const every = setInterval(() => void purge(), PURGE_EVERY_MS);
  first.unref();
  every.unref();
  app.addHook('preClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}
