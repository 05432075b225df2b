import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';

/** An error whose message is meant for the person who sent the request. */
export class HttpError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, detail: string) {
    super(detail);
    this.statusCode = statusCode;
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail = 'Please sign in to continue.') => new HttpError(401, detail);
export const forbidden = (detail = 'You do not have access to this.') => new HttpError(403, detail);
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);

/** Parses input against a zod schema; a failure becomes a 400 naming the first problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw badRequest(describeZodError(result.error));
}

export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  const field = issue.path.length > 0 ? issue.path.join('.') : undefined;
  // Schemas in common/ carry human messages; zod's generic ones get the field name in front.
  const generic = issue.message.startsWith('Invalid input') || issue.message.startsWith('Too ');
  return field && generic ? `${field}: ${issue.message}` : issue.message;
}

/** One error handler for the whole server: every failure answers `{detail}`, 5xx never leaks internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ detail: error.message });
    }
    if (error instanceof z.ZodError) {
      return reply.status(400).send({ detail: describeZodError(error) });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const detail =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'This request body type is not supported.'
          : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'The request body is empty.'
            : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
              ? 'The request body is too large.'
              : status === 429
                ? error.message
                : error.validation
                  ? `The request is not valid: ${error.message}`
                  : status === 400 && error.message.includes('JSON')
                    ? 'The request body is not valid JSON.'
                    : error.message;
      return reply.status(status).send({ detail });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ detail: 'Something went wrong on our side. Please try again.' });
  });
}
