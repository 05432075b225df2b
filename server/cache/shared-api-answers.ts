import type http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { FrontDoor } from '../http/front-door.ts';
import type { CountAnswer } from '../http/metrics.ts';
import { loggablePath } from '../http/request-log.ts';
import { loggableError } from '../loggable-error.ts';
import { DataVersion } from './data-version.ts';
import { headerSetsOf, isVisitorRead, preferredEncoding, sendShared, shareableAnswer, type SharedAnswer } from './visitor-cache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public read that every visitor gets alike (the catalogue): kept, serialized and compressed, while the data holds. */
    visitorCache?: boolean;
  }
  interface FastifyRequest {
    /** Set on a visitor's read of such a route when nothing was kept: where its answer goes. */
    sharedAnswer: { key: string; version: string } | null;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Visitors' reads of the public API routes marked `visitorCache` are answered with kept bytes;
 * and after every write that went through, the process reads the data version at once, so the
 * very next answer reflects it.
 */
export function shareVisitorAnswers(app: FastifyInstance) {
  app.decorateRequest('sharedAnswer', null);
  // Answers being compressed now: when many visitors miss at once (after a change), one compression
  // per answer and version is enough, the others are answered without keeping a copy.
  const compressing = new Set<string>();

  app.addHook('onRequest', (request, reply, done) => {
    if (!request.routeOptions.config.visitorCache || !isVisitorRead(request, app.siteCookies)) return done();
    const key = `api:${request.url}`;
    const kept = app.visitorCache.lookup(key);
    if (kept) {
      sendShared(request, reply, kept);
      return;
    }
    request.sharedAnswer = { key, version: app.visitorCache.versionFor(key) };
    done();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const shared = request.sharedAnswer;
    if (shared && request.method === 'GET' && reply.statusCode === 200 && typeof payload === 'string') {
      const link = reply.getHeader('link');
      const headers = {
        'content-type': String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
        // A page of a list names the next one (server/http/paging.ts).
        ...(link !== undefined && { link: String(link) }),
      };
      // Kept for the next visitors; this one gets the answer as it is, without waiting for the compression.
      const flight = `${shared.version} ${shared.key}`;
      const route = request.routeOptions.url;
      if (!compressing.has(flight)) {
        compressing.add(flight);
        void shareableAnswer(shared.version, 200, headers, Buffer.from(payload))
          .then(
            (answer) => app.visitorCache.store(shared.key, { ...answer, route }),
            () => {},
          )
          .finally(() => compressing.delete(flight));
      }
    }
    if (!READS.has(request.method) && reply.statusCode < 400) {
      // The write stands whatever happens here; a failed read of the versions only delays fresh answers by the poll's second.
      await DataVersion.refreshAll(app.dataVersions).catch((error: unknown) =>
        request.log.warn({ err: loggableError(error) }, 'could not read the data versions after a write'),
      );
    }
    return payload;
  });
}

/** A kept answer's headers as the front door writes them, per encoding and for a 304: one flat list each, made once. */
const doorHeaders = new WeakMap<SharedAnswer, Record<'br' | 'gzip' | 'identity' | 'unchanged', string[]>>();
function doorHeadersOf(answer: SharedAnswer, site: Readonly<Record<string, string>>) {
  let lists = doorHeaders.get(answer);
  if (!lists) {
    const sets = headerSetsOf(answer);
    const flat = (set: Record<string, string>) => Object.entries({ ...site, ...set }).flat();
    const { 'content-encoding': _encoding, ...unchanged } = sets.identity;
    lists = { br: flat(sets.br), gzip: flat(sets.gzip), identity: flat(sets.identity), unchanged: flat(unchanged) };
    doorHeaders.set(answer, lists);
  }
  return lists;
}

/**
 * Visitors' reads of kept public API answers, given at the front door, before the framework: the same
 * answer the onRequest hook above gives (the same bytes, headers, 304 and HEAD), counted in the
 * metrics and logged as every request is. A profile showed the framework's routing, hooks and reply
 * cost more than the rest of such a request; given here, /api/courses goes from 56% of a bare server
 * to about 85%. Anything else (a cookie of the site, a token, a body, a draining process, an answer not
 * kept) goes on to the app.
 */
export function answerKeptReadsAtTheDoor(
  app: FastifyInstance,
  frontDoor: FrontDoor,
  deps: { siteHeaders: Readonly<Record<string, string>>; requestId: (request: http.IncomingMessage) => string; countAnswer: CountAnswer },
): void {
  const cookieNames = Object.values(app.siteCookies.names);
  // Any mention of the site's cookies sends the request on (the app reads cookies exactly).
  const mayCarrySiteCookie = (header: string) => cookieNames.some((name) => header.includes(name));
  frontDoor.open((request, response) => {
    const { method, url, headers } = request;
    if ((method !== 'GET' && method !== 'HEAD') || !url?.startsWith('/api/') || app.lifecycle.draining) return false;
    if (headers.authorization !== undefined || headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) {
      return false;
    }
    if (headers.cookie !== undefined && mayCarrySiteCookie(headers.cookie)) return false;
    const kept = app.visitorCache.lookup(`api:${url}`);
    if (kept?.route === undefined) return false;

    const started = performance.now();
    const id = deps.requestId(request);
    const lists = doorHeadersOf(kept, deps.siteHeaders);
    let status = kept.status;
    let body: Buffer | undefined;
    if (headers['if-none-match'] === kept.etag) {
      status = 304;
      response.writeHead(304, [...lists.unchanged, 'x-request-id', id]);
    } else {
      const encoding = preferredEncoding(headers['accept-encoding']) ?? 'identity';
      body = encoding === 'br' ? kept.br : encoding === 'gzip' ? kept.gzip : kept.identity;
      response.writeHead(status, [...lists[encoding], 'x-request-id', id, 'content-length', String(body.length)]);
    }
    response.end(method === 'HEAD' ? undefined : body);
    const ms = performance.now() - started;
    deps.countAnswer(method, kept.route, status, ms);
    if ((app.log as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.('info') !== false)
      app.log.info({ reqId: id, method, path: loggablePath(url), status, ms: Math.round(ms) }, 'request');
    return true;
  });
  app.addHook('preClose', (done) => {
    frontDoor.shut();
    done();
  });
}
