import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

// An id a proxy may hand us: short, and nothing that could break a log line or a header.
const FORWARDED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The id of each request: the trusted proxy's `X-Request-Id` when one stands in front (TRUST_PROXY)
 * and sends a sensible one, else a new UUID, so ids never collide between processes.
 */
export function requestIdGenerator(trustProxy: boolean): (request: IncomingMessage) => string {
  return (request) => {
    const forwarded = trustProxy ? request.headers['x-request-id'] : undefined;
    return typeof forwarded === 'string' && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
  };
}

/** Every answer names its request, so a member or a proxy can quote it and the logs find it. */
export function answerWithRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}
