import type { FastifyInstance } from 'fastify';

/** GET /healthz answers 200 only once the database answers, so a balancer sends traffic to ready processes. */
export async function healthRoutes(app: FastifyInstance, options: { ping: () => Promise<void> }) {
  app.get('/healthz', async (request, reply) => {
    try {
      await options.ping();
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database not answering');
      return reply.status(503).send({ status: 'unavailable', detail: 'The database is not answering.' });
    }
  });
}
