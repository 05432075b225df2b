import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * The routes whose path holds a secret: a member's calendar feed, as a calendar app asks for it with
 * no cookie, the key in the address. Every other link that carries a token (unsubscribe, team
 * invitation, password reset, email verification and change) carries it in the query string, which
 * is never logged. tests/api/calendar-and-log-secrets.test.ts reads the route table: a new path
 * parameter is either known to be no secret or listed here.
 */
export const SECRET_PATHS = ['/api/coaching/calendar/:token'] as const;

const SECRET_PREFIXES = SECRET_PATHS.map((pattern) => pattern.slice(0, pattern.indexOf(':')));
export const REDACTED = '[redacted]';

/**
 * The path as some router could read it, in lower case: escapes decoded, `.` and `..` resolved,
 * backslashes and repeated slashes as one slash (a few rounds, for escapes of escapes).
 */
function readAs(path: string): string {
  let plain = path;
  for (let round = 0; round < 3; round++) {
    let decoded = plain;
    try {
      decoded = decodeURIComponent(plain);
    } catch {
      // A malformed escape stays as it came.
    }
    const segments: string[] = [];
    for (const segment of decoded.split(/[/\\]+/)) {
      if (segment === '..') segments.pop();
      else if (segment !== '.' && segment !== '') segments.push(segment);
    }
    const next = `/${segments.join('/')}${/[/\\]$/.test(decoded) ? '/' : ''}`.toLowerCase();
    if (next === plain) break;
    plain = next;
  }
  return plain;
}

/**
 * The one rule for a path in the log: never the query string, and for a path that reaches a route
 * holding a secret, nothing after that route's fixed part, however the path is written (a trailing
 * or doubled slash, escapes, dot segments, capitals) and whichever route answered it (the feed, or
 * a 404).
 */
export function loggablePath(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const plain = readAs(path);
  const prefix = SECRET_PREFIXES.find((fixed) => plain.includes(fixed));
  return prefix ? `${prefix}${REDACTED}` : path;
}

const pathOf = (request: FastifyRequest) => loggablePath(request.url);

/**
 * Fastify's own request log lines, made safe and short: one line per request with its method,
 * path (never the query string, nor a secret in the path: `loggablePath`), status and time; no
 * headers, so no cookies or Authorization values; errors without the request attached.
 */
export class SiteLogController extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    // The line below is dropped anyway at 'warn' and up: not even made then (this runs for every request).
    if (!error && (reply.log as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.('info') === false) return;
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
