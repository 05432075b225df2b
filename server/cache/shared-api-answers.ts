import type { FastifyInstance } from 'fastify';
import { loggableError } from '../loggable-error.ts';
import { DataVersion } from './data-version.ts';
import { isVisitorRead, sendShared, shareableAnswer } from './visitor-cache.ts';

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
      if (!compressing.has(flight)) {
        compressing.add(flight);
        void shareableAnswer(shared.version, 200, headers, Buffer.from(payload))
          .then(
            (answer) => app.visitorCache.store(shared.key, answer),
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
