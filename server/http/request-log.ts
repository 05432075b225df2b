import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const pathOf = (request: FastifyRequest) => request.url.split('?')[0];

/**
 * Fastify's own request log lines, made safe and short: one line per request with its method,
 * path (never the query string, which may hold a token), status and time; no headers, so no
 * cookies or Authorization values; errors without the request attached.
 */
export class SiteLogController extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { method: request.method, path: pathOf(request), status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: { type: error.name, message: error.message } }, 'request failed');
    else reply.log.info(line, 'request');
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply) {
    reply.log[reply.statusCode >= 500 ? 'error' : 'info']({ path: pathOf(request), status: reply.statusCode }, error.message);
  }

  override routeNotFound(request: FastifyRequest) {
    request.log.info({ method: request.method, path: pathOf(request) }, 'no such route');
  }

  override writeHeadError(error: Error, _request: FastifyRequest, reply: FastifyReply) {
    reply.log.warn({ err: { type: error.name, message: error.message } }, 'could not write the response headers');
  }
}
