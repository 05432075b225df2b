import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATABASE_UNAVAILABLE, PAYMENTS_UNAVAILABLE, ServiceError, STORAGE_FULL, unavailable } from '../../common/errors.ts';
import { isDatabaseUnavailable, isRefusedValue } from '../../db/database-errors.ts';
import { isStripeUnavailable } from '../billing/stripe-gateway.ts';
import { isStorageFull, isStorageUnavailable, STORAGE_UNAVAILABLE } from '../files/storage.ts';
import { loggableError } from '../loggable-error.ts';

/** Seconds a client is asked to wait before trying again after a 503 (the database is back within that, usually). */
export const RETRY_AFTER_SECONDS = 5;

/** The first problem of a zod error as one sentence; schemas in common/ carry human messages. */
function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  return describeIssue(issue.path.map(String), issue.message);
}

function describeIssue(path: string[], message: string): string {
  const field = path.length > 0 ? path.join('.') : undefined;
  // zod's own generic messages get the field name in front; ours stand alone.
  const generic = message.startsWith('Invalid') || message.startsWith('Too ') || message.startsWith('Unrecognized');
  return field && generic ? `${field}: ${message}` : message;
}

// Fastify's own 4xx codes, in words a person understands.
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This request body type is not supported.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
};

/**
 * A failure of something the site depends on (the database, Stripe, the file store), as the answer a
 * member reads: 503 with what is away (507 for a full store); null for anything else (docs/decisions/011).
 */
export function neighbourFailure(error: unknown): ServiceError | null {
  // Stripe's and the bucket's errors are told by their own shape first: a refused connection looks
  // the same from any of them, and one that is neither comes from the database.
  if (isStripeUnavailable(error)) return unavailable(PAYMENTS_UNAVAILABLE);
  if (isStorageFull(error)) return new ServiceError(507, STORAGE_FULL);
  if (isStorageUnavailable(error)) return unavailable(STORAGE_UNAVAILABLE);
  if (isDatabaseUnavailable(error)) return unavailable(DATABASE_UNAVAILABLE);
  return null;
}

/** One error handler for the whole server: every failure answers `{detail}`, a 5xx never leaks internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    // Fastify closes the connection after a body it refused; with the rest of the body still on its
    // way, the client would be reset before reading this answer. The server reads and drops that rest
    // instead, within bounds (http-server.ts), and the client reads the answer.
    if (!request.raw.complete) reply.removeHeader('connection');
    if (error instanceof ServiceError) {
      if (error.status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.status(error.status).send({ detail: error.message });
    }
    if (isRefusedValue(error)) {
      request.log.warn({ err: loggableError(error) }, 'a value of the request was refused by the database');
      return reply.status(400).send({ detail: 'The request holds a value the site cannot use. Please check it and try again.' });
    }
    const away = neighbourFailure(error);
    if (away) {
      request.log.warn({ err: loggableError(error) }, away.message);
      if (away.status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.status(away.status).send({ detail: away.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const [first] = error.validation;
      const path = (first?.instancePath ?? '').split('/').filter(Boolean);
      return reply.status(400).send({ detail: first?.message ? describeIssue(path, first.message) : 'The request is not valid.' });
    }
    if (error instanceof z.ZodError) {
      return reply.status(400).send({ detail: describeZodError(error) });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const known = FASTIFY_MESSAGES[error.code];
      const detail = known ?? (status === 400 && error.message.includes('JSON') ? 'The request body is not valid JSON.' : error.message);
      return reply.status(status).send({ detail });
    }
    request.log.error({ err: loggableError(error) }, 'request failed');
    // The reference is the request id, on every log line of this request: support finds it from the member's quote.
    return reply.status(500).send({ detail: `Something went wrong on our side. Please try again. (Reference: ${request.id})` });
  });
}
