import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../../common/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that a browser sends with the site's cookies on behalf of
 * another site, even a sibling subdomain that SameSite=Lax would let through. Browsers say where a
 * request comes from in Sec-Fetch-Site (or at least Origin); API clients that sign in with a
 * Bearer token carry no cookies and are not affected.
 */
export function refuseCrossSiteWrites(app: FastifyInstance, siteOrigin: { readonly publicUrl: string }) {
  const fromThisSite = (request: FastifyRequest) => {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined) return site === 'same-origin' || site === 'none';
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    return origin === siteOrigin.publicUrl || origin === `${request.protocol}://${request.host}`;
  };
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method) || request.headers.authorization || !app.siteCookies.carriesAny(request)) return done();
    if (!fromThisSite(request)) return done(forbidden('This request came from another site, so it was refused.'));
    done();
  });
}

/**
 * Answers that depend on who asks (the API, pages) are never stored by a browser's or a CDN's
 * shared cache: `private, no-store` and `Vary: Cookie, Authorization`, unless a route chose its own.
 */
export function keepAnswersPrivate(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    const dynamic = request.url.startsWith('/api/') || request.routeOptions.url === '*';
    if (dynamic && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'private, no-store');
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, Cookie, Authorization` : 'Cookie, Authorization');
    }
    done(null, payload);
  });
}
