import type { FastifyInstance } from 'fastify';
import { loggableError } from '../loggable-error.ts';

/** Readiness waits this long for the database: longer means "send traffic elsewhere for now". */
const READY_WAIT_MS = 1_000;

function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * What a load balancer or an orchestrator asks (README, Operations):
 * - /livez: the process and its event loop answer ("restart me" when it does not);
 * - /readyz: the start has finished (Redis and Stripe's prices, waited for after listening), the
 *   database answers within a second, its schema is current and the process is not stopping
 *   ("route around me" when it does not);
 * - /healthz: the database answers (kept for existing checks).
 */
/** What the checks ask of the database: that it answers, and that its schema is the one this code expects. */
interface DatabaseProbe {
  ping(timeoutMs?: number): Promise<void>;
  schemaIsCurrent(): Promise<boolean>;
}

export async function healthRoutes(app: FastifyInstance, options: { database: DatabaseProbe }) {
  const { database } = options;
  const noStore = { 'cache-control': 'no-store' };

  app.get('/livez', async (_request, reply) => reply.headers(noStore).send({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    reply.headers(noStore);
    if (app.lifecycle.draining) return reply.status(503).send({ status: 'draining', detail: 'The server is stopping.' });
    if (!app.startup.done) return reply.status(503).send({ status: 'starting', detail: 'The server is starting.' });
    try {
      const current = await withinTime(database.schemaIsCurrent(), READY_WAIT_MS);
      if (!current) return reply.status(503).send({ status: 'migrating', detail: 'The database schema is older than this server.' });
      // A stop may have begun while the database was asked.
      if (app.lifecycle.draining) return reply.status(503).send({ status: 'draining', detail: 'The server is stopping.' });
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: loggableError(error) }, 'readiness: the database is not answering');
      return reply.status(503).send({ status: 'unavailable', detail: 'The database is not answering.' });
    }
  });

  app.get('/healthz', async (request, reply) => {
    reply.headers(noStore);
    try {
      await withinTime(database.ping(READY_WAIT_MS), READY_WAIT_MS);
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ err: loggableError(error) }, 'health check: database not answering');
      return reply.status(503).send({ status: 'unavailable', detail: 'The database is not answering.' });
    }
  });
}
