import { LICENCES, PAGE_RENDERS_AT_ONCE } from '../../common/limits.ts';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { createRequest, fastifyReactRouter, sendResponse } from '@mcansh/react-router-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import type { ViteDevServer } from 'vite';
import { cspNonceContext, keptPageDiscussionsContext, pageSessionContext, servicesContext, viewerContext } from '#request-context';
import { OwnPageCache, ownPageLookups, type OwnPage } from '../cache/own-page-cache.ts';
import { isVisitorRead, preferredEncoding, sendShared, shareableAnswer, type SharedAnswer } from '../cache/visitor-cache.ts';
import type { ServiceError } from '../../common/errors.ts';
import { FAILURE_ATTRIBUTES, NEIGHBOUR_AWAY_HEADING } from '../../common/page-failure.ts';
import { mayEnterStaffArea } from '../../common/policies.ts';
import { neighbourFailure, RETRY_AFTER_SECONDS } from '../http/errors.ts';
import { loggableError } from '../loggable-error.ts';
import { pageContentSecurityPolicy, paymentFormTargets, sharedPageContentSecurityPolicy } from '../http/security-headers.ts';
import type { ServerServices } from '../services.ts';
import { limitPageBodies, PAGE_FORM_LIMIT_BYTES } from './body-limit.ts';
import { createPageSession } from './page-session.ts';
import { Turns } from './turns.ts';

// The admin's upload form: the one page form that carries files, taken large from staff whose area it is.
const UPLOAD_PAGE = '/admin/dashboard/files';
const LICENCE_PAGE = '/licence';
// What a shared page is rendered with in place of a nonce; it is taken out again, and the page's
// inline scripts are allowed by their hashes instead (docs/decisions/005).
const SHARED_PAGE_NONCE = 'shared-page';
// Pages a member reloads often that show only their own data, the catalogue and the community
// discussions their loaders name: kept per session while that data holds (docs/decisions/009).
const KEPT_OWN_PAGES = new Set(['/dashboard', '/community']);
const YEAR_SECONDS = 365 * 24 * 60 * 60;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const dynamicBrotli = (body: Buffer) => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
});
const MONTH_SECONDS = 30 * 24 * 60 * 60;

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const clientBuildDirectory = path.join(projectRoot, 'build/client');

/**
 * The services as a page calls them. A call that fails because the database, Stripe or the file
 * store is away fails with the 503 refusal a form shows (neighbourFailure); and the page notes
 * whether any call failed: a page that fell back on an empty list or a default text (SPEC 8) is
 * sent, but not kept.
 */
function watchedServices(services: ServerServices) {
  let failed = false;
  let away: ServiceError | null = null;
  const noticed = (feature: object) =>
    new Proxy(feature, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result: unknown = Reflect.apply(value, target, args);
          if (!(result instanceof Promise)) return result;
          return result.catch((error: unknown) => {
            failed = true;
            const refusal = neighbourFailure(error);
            if (!refusal) throw error;
            away ??= refusal;
            throw refusal;
          });
        };
      },
    });
  const watched = new Proxy(services, {
    get: (target, property) => {
      const feature: unknown = Reflect.get(target, property);
      return typeof feature === 'object' && feature !== null ? noticed(feature) : feature;
    },
  });
  return { services: watched, failed: () => failed, away: () => away };
}

const escapeText = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

/** Puts `text` into the element of the error page marked with `attribute` (common/page-failure.ts). */
const fillMarked = (html: string, attribute: string, text: string) =>
  html.replace(
    new RegExp(`(<[a-z0-9]+[^>]*\\s${attribute}=""[^>]*>)[^<]*(</)`),
    (_whole, open: string, close: string) => open + escapeText(text) + close,
  );

/**
 * A page that failed on the server's side: its error page names the request, so a member can quote it
 * to support; when a neighbour is away, it says so, with its status (503) and `Retry-After`.
 */
async function explainingFailure(response: Response, away: ServiceError | null, requestId: string): Promise<Response> {
  if (response.status < 500) return response;
  const headers = new Headers(response.headers);
  const status = away?.status ?? response.status;
  if (away) headers.set('retry-after', String(RETRY_AFTER_SECONDS));
  if (!headers.get('content-type')?.startsWith('text/html') || !response.body) return new Response(response.body, { status, headers });
  let html = fillMarked(await response.text(), FAILURE_ATTRIBUTES.reference, `Reference: ${requestId}`);
  if (away) {
    if (away.status === 503) html = fillMarked(html, FAILURE_ATTRIBUTES.heading, NEIGHBOUR_AWAY_HEADING);
    html = fillMarked(html, FAILURE_ATTRIBUTES.detail, away.message);
  }
  headers.delete('content-length');
  return new Response(html, { status, headers });
}

/** When not even the session could be read: a plain page that says so, for browsers; JSON for `.data` requests. */
/**
 * The Fetch request React Router reads. A request with no body to parse (none was sent) is given an
 * empty one: its stream comes already read (server/http/http-server.ts) and would never end.
 */
function fetchRequestOf(request: FastifyRequest, reply: FastifyReply): Request {
  if (request.body == null && request.method !== 'GET' && request.method !== 'HEAD') request.body = '';
  return createRequest(request, reply);
}

function sendUnavailablePage(request: FastifyRequest, reply: FastifyReply, away: ServiceError) {
  reply.status(away.status).header('retry-after', String(RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
  if (request.url.split('?')[0]?.endsWith('.data')) return reply.send({ detail: away.message });
  const text = escapeText(away.message);
  return reply
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${NEIGHBOUR_AWAY_HEADING}</title></head><body><h1>${NEIGHBOUR_AWAY_HEADING}</h1><p>${text}</p><p><a href="">Try again</a></p></body></html>`,
    );
}

/** A shared page's inline scripts, by hash, and its HTML without the stand-in nonce. */
function withoutNonce(html: string): { html: string; scriptHashes: string[] } {
  const cleaned = html.replaceAll(` nonce="${SHARED_PAGE_NONCE}"`, '');
  const scriptHashes = [...cleaned.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) =>
    createHash('sha256').update(match[1]!, 'utf8').digest('base64'),
  );
  return { html: cleaned, scriptHashes: [...new Set(scriptHashes)] };
}

/**
 * The built client files: hashed assets cached for a year, images for a month, everything else for
 * an hour; the build's brotli and gzip copies are sent to browsers that take them.
 */
async function serveBuiltFiles(app: FastifyInstance) {
  const assets = path.join(clientBuildDirectory, 'assets');
  const images = path.join(clientBuildDirectory, 'images');
  await app.register(fastifyStatic, {
    root: clientBuildDirectory,
    prefix: '/',
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    dotfiles: 'ignore',
    etag: true,
    lastModified: true,
    setHeaders(reply, filePath) {
      // The service worker is checked for updates on every visit: never an old copy from a cache.
      if (/[\\/]sw\.js(?:\.br|\.gz)?$/.test(filePath)) {
        reply.header('cache-control', 'no-cache');
        return;
      }
      const maxAge = filePath.startsWith(assets) ? `${YEAR_SECONDS}, immutable` : filePath.startsWith(images) ? MONTH_SECONDS : 3600;
      reply.header('cache-control', `public, max-age=${maxAge}`);
    },
  });
}

/** Server-rendered pages (React Router framework mode) and the built client assets. */
export async function pagesPlugin(app: FastifyInstance, options: { devServer?: ViteDevServer }) {
  const formTargets = paymentFormTargets(app.config.stripe);
  const serverBuildPath = path.join(projectRoot, 'build/server/index.js');
  if (!options.devServer && !fs.existsSync(serverBuildPath)) {
    // The API still works; pages say plainly what is missing instead of failing on every request.
    app.log.error('No production build of the pages: run `npm run build` before `npm start`.');
    app.all('*', async (_request, reply) =>
      reply.status(503).type('text/plain').send('The site has not been built yet: run `npm run build`, then start it again.'),
    );
    return;
  }
  app.addHook(
    'preHandler',
    limitPageBodies(async (request) => {
      const page = request.url.split('?')[0]?.replace(/\.data$/, '');
      // Files come through two pages: the library's uploads (its staff), a member's CE certificate.
      if (page === UPLOAD_PAGE && mayEnterStaffArea(await request.viewer(), 'content'))
        return app.config.uploadMaxBytes + PAGE_FORM_LIMIT_BYTES;
      if (page === LICENCE_PAGE && (await request.viewer()).member) return LICENCES.certificateMaxBytes + PAGE_FORM_LIMIT_BYTES;
      return PAGE_FORM_LIMIT_BYTES;
    }),
  );

  // Loaders and actions call the services in process, with the viewer resolved once for the request.
  async function loadContext(
    request: FastifyRequest,
    reply: FastifyReply,
    shared: boolean,
    services: ServerServices,
    discussions: Set<string> | null = null,
  ) {
    const viewer = await request.viewer();
    // SPEC 8: a session that no longer works is forgotten silently; the visitor is simply signed out.
    for (const kind of await request.staleSessionCookies()) app.siteCookies.clearSession(request, reply, kind);
    // A fresh nonce for this page's inline scripts, named in its Content-Security-Policy.
    const nonce = shared ? SHARED_PAGE_NONCE : randomBytes(18).toString('base64');
    if (!shared) reply.header('content-security-policy', pageContentSecurityPolicy(nonce, formTargets));
    const context = new RouterContextProvider();
    context.set(cspNonceContext, nonce);
    context.set(servicesContext, services);
    context.set(viewerContext, viewer);
    context.set(keptPageDiscussionsContext, discussions);
    context.set(
      pageSessionContext,
      createPageSession({ services: app.services, sessions: app.sessions, cookies: app.siteCookies }, viewer, request, reply),
    );
    return context;
  }

  if (options.devServer) {
    // Development: Vite renders every page afresh, with hot reloading; nothing is shared.
    await app.register(fastifyReactRouter, {
      devServer: options.devServer,
      getLoadContext: (request, reply) => loadContext(request, reply, false, watchedServices(app.services).services),
    });
    return;
  }

  await serveBuiltFiles(app);
  const build = (await import(pathToFileURL(serverBuildPath).href)) as ServerBuild;
  const renderAnyNumber = createRequestHandler(build, 'production');
  // A page's loaders and render, a few at a time (the others wait their turn; kept pages are not
  // rendered): 32 connections asking for large staff pages at once take PAGE_RENDERS_AT_ONCE of the
  // database's connections and renders' memory, not 32.
  const renderTurns = new Turns(PAGE_RENDERS_AT_ONCE);
  const render: typeof renderAnyNumber = (request, context) => renderTurns.run(() => renderAnyNumber(request, context));
  const cache = app.visitorCache;
  const ownPages = new OwnPageCache(app.dataVersions);
  /** Members' own pages being rendered, by their key (sendKeptOwnPage). */
  const ownRendersUnderWay = new Map<string, Promise<OwnPage | undefined>>();

  /** A page rendered for sharing that turned out to be this visitor's alone (a 404, say): it gets a nonce of its own. */
  async function asOwnPage(response: Response): Promise<Response> {
    if (!response.headers.get('content-type')?.startsWith('text/html') || !response.body) return response;
    const nonce = randomBytes(18).toString('base64');
    const html = (await response.text()).replaceAll(`nonce="${SHARED_PAGE_NONCE}"`, `nonce="${nonce}"`);
    const headers = new Headers(response.headers);
    headers.set('content-security-policy', pageContentSecurityPolicy(nonce, formTargets));
    headers.delete('content-length');
    return new Response(html, { status: response.status, headers });
  }

  /** A visitor's page (or its data, `.data`): shared when it is a plain success that sets no cookie. */
  async function renderForVisitors(request: FastifyRequest, reply: FastifyReply) {
    const version = cache.versionFor(`page:${request.url}`);
    const watched = watchedServices(app.services);
    const response = await explainingFailure(
      await render(fetchRequestOf(request, reply), await loadContext(request, reply, true, watched.services)),
      watched.away(),
      request.id,
    );
    const type = response.headers.get('content-type') ?? '';
    // A page that fell back on an empty list or a default text (a neighbour away) is sent, never kept:
    // the data version does not move across an outage, so a kept copy would outlive it.
    if (response.status !== 200 || response.headers.has('set-cookie') || !/^text\/(html|x-script)/.test(type) || watched.failed()) {
      return { own: await asOwnPage(response) };
    }
    const body = Buffer.from(await response.arrayBuffer());
    if (!type.startsWith('text/html')) return { share: await shareableAnswer(version, 200, { 'content-type': type }, body) };
    const page = withoutNonce(body.toString('utf8'));
    const headers = { 'content-type': type, 'content-security-policy': sharedPageContentSecurityPolicy(page.scriptHashes, formTargets) };
    return { share: await shareableAnswer(version, 200, headers, Buffer.from(page.html, 'utf8')) };
  }

  /**
   * A page rendered for one person, compressed whole on the thread pool (the other core), not
   * chunk by chunk on the request thread; what is not a page goes out as it is.
   */
  async function sendOwn(request: FastifyRequest, reply: FastifyReply, response: Response) {
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding || !response.body || !/^text\/(html|x-script)/.test(response.headers.get('content-type') ?? '')) {
      return sendResponse(reply, response);
    }
    const body = Buffer.from(await response.arrayBuffer());
    const compressed = encoding === 'br' ? await brotli(body, dynamicBrotli(body)) : await gzip(body);
    const headers = new Headers(response.headers);
    headers.set('content-encoding', encoding);
    headers.set('vary', 'Accept-Encoding');
    headers.delete('content-length');
    return sendResponse(reply, new Response(compressed, { status: response.status, headers }));
  }

  /**
   * Where a member's own page is kept: by page, encoding and session (and staff session, for edit
   * mode). None for a request whose answer is one of a kind: a flash to show, cookies to forget.
   */
  async function ownPageKey(request: FastifyRequest): Promise<{ key: string; memberId: string } | undefined> {
    if (request.method !== 'GET' || !KEPT_OWN_PAGES.has(request.url) || request.headers.authorization) return undefined;
    if (app.siteCookies.flash(request) !== undefined) return undefined;
    const viewer = await request.viewer();
    if (!viewer.member || (await request.staleSessionCookies()).length > 0) return undefined;
    const encoding = preferredEncoding(request.headers['accept-encoding']) ?? 'identity';
    return { key: `${request.url} ${encoding} ${viewer.member.sessionId} ${viewer.staff?.sessionId ?? '-'}`, memberId: viewer.member.id };
  }

  const sendOwnPage = (reply: FastifyReply, page: OwnPage) => reply.code(200).headers(page.headers).send(page.body);

  /**
   * A member's own page as kept for their session, else rendered like a shared page (its inline
   * scripts allowed by hash, so no nonce is ever sent twice) and kept while its data holds.
   */
  async function sendKeptOwnPage(request: FastifyRequest, reply: FastifyReply, own: { key: string; memberId: string }) {
    const kept = ownPages.lookup(own.key, own.memberId);
    if (kept) return sendOwnPage(reply, kept);
    // The same page of the same session asked again while it renders (a phone and its prefetch, or
    // a busy hour's stale pages asked by several tabs): the one render serves them all, if it is kept.
    const underWay = ownRendersUnderWay.get(own.key);
    const shared = underWay && (await underWay);
    if (shared) {
      ownPageLookups.shared += 1;
      return sendOwnPage(reply, shared);
    }
    let done!: (page: OwnPage | undefined) => void;
    const rendered = new Promise<OwnPage | undefined>((resolve) => (done = resolve));
    ownRendersUnderWay.set(own.key, rendered);
    try {
      return await renderAndKeepOwnPage(request, reply, own, done);
    } finally {
      done(undefined);
      if (ownRendersUnderWay.get(own.key) === rendered) ownRendersUnderWay.delete(own.key);
    }
  }

  /** Renders a member's own page, keeps it while its data holds, and tells `made` of it (undefined when it is not kept). */
  async function renderAndKeepOwnPage(
    request: FastifyRequest,
    reply: FastifyReply,
    { key, memberId }: { key: string; memberId: string },
    made: (page: OwnPage | undefined) => void,
  ) {
    // Taken before the data is read: a change during the render to what the page shows means it is
    // sent once, not kept.
    const start = ownPages.begin(memberId);
    const shown = new Set<string>();
    const watched = watchedServices(app.services);
    const response = await explainingFailure(
      await render(fetchRequestOf(request, reply), await loadContext(request, reply, true, watched.services, shown)),
      watched.away(),
      request.id,
    );
    const type = response.headers.get('content-type') ?? '';
    const discussions = shown.size > 0 ? [...shown].sort() : undefined;
    const version = start && ownPages.versionSince(start, memberId, discussions);
    if (version === null || response.status !== 200 || !type.startsWith('text/html')) {
      return sendOwn(request, reply, await asOwnPage(response));
    }
    const text = await response.text();
    // Checked once the whole page is out, so a failure anywhere in it counts.
    if (response.headers.has('set-cookie') || app.siteCookies.wroteTo(reply) || watched.failed()) {
      return sendOwn(request, reply, await asOwnPage(new Response(text, { status: 200, headers: response.headers })));
    }
    const page = withoutNonce(text);
    const html = Buffer.from(page.html, 'utf8');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    const kept: OwnPage = {
      version,
      discussions,
      madeAt: Date.now(),
      headers: {
        'content-type': type,
        'content-security-policy': sharedPageContentSecurityPolicy(page.scriptHashes, formTargets),
        ...(encoding && { 'content-encoding': encoding }),
      },
      body: encoding === 'br' ? await brotli(html, dynamicBrotli(html)) : encoding === 'gzip' ? await gzip(html) : html,
    };
    if (ownPages.store(key, memberId, kept)) made(kept);
    return sendOwnPage(reply, kept);
  }

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  /** A page made for this request alone. */
  async function renderOwn(request: FastifyRequest, reply: FastifyReply) {
    const watched = watchedServices(app.services);
    const response = await render(fetchRequestOf(request, reply), await loadContext(request, reply, false, watched.services));
    return explainingFailure(response, watched.away(), request.id);
  }

  app.all('*', async (request, reply) => {
    try {
      if (!isVisitorRead(request, app.siteCookies)) {
        const ownKey = await ownPageKey(request);
        if (ownKey) return await sendKeptOwnPage(request, reply, ownKey);
        return await sendOwn(request, reply, await renderOwn(request, reply));
      }
      // HEAD answers from a kept page, and never makes one (its render has no body).
      const kept: SharedAnswer | undefined = cache.lookup(`page:${request.url}`);
      if (kept) return sendShared(request, reply, kept);
      if (request.method === 'HEAD') return await sendResponse(reply, await renderOwn(request, reply));
      const answer = await cache.answer(`page:${request.url}`, () => renderForVisitors(request, reply));
      if ('share' in answer) return sendShared(request, reply, answer.share);
      return await sendOwn(request, reply, answer.own!);
    } catch (error) {
      // The session itself could not be read (the database is away): say so, in a page.
      const away = neighbourFailure(error);
      if (!away || reply.sent) throw error;
      request.log.warn({ err: loggableError(error) }, away.message);
      return sendUnavailablePage(request, reply, away);
    }
  });
}
