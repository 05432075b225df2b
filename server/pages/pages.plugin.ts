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
import { cspNonceContext, pageSessionContext, servicesContext, viewerContext } from '#request-context';
import { isVisitorRead, preferredEncoding, sendShared, shareableAnswer, type SharedAnswer } from '../cache/visitor-cache.ts';
import { pageContentSecurityPolicy, paymentFormTargets, sharedPageContentSecurityPolicy } from '../http/security-headers.ts';
import { limitPageBodies, PAGE_FORM_LIMIT_BYTES } from './body-limit.ts';
import { createPageSession } from './page-session.ts';

// The admin's upload form: the one page form that carries files.
const UPLOAD_PAGE = '/admin/dashboard/files';
// What a shared page is rendered with in place of a nonce; it is taken out again, and the page's
// inline scripts are allowed by their hashes instead (docs/decisions/005).
const SHARED_PAGE_NONCE = 'shared-page';
const YEAR_SECONDS = 365 * 24 * 60 * 60;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const DYNAMIC_BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };
const MONTH_SECONDS = 30 * 24 * 60 * 60;

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const clientBuildDirectory = path.join(projectRoot, 'build/client');

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
      if (filePath.endsWith(`${path.sep}sw.js`)) {
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
    limitPageBodies(async (request) =>
      request.url.split('?')[0]?.replace(/\.data$/, '') === UPLOAD_PAGE && (await request.viewer()).staff
        ? app.config.uploadMaxBytes + PAGE_FORM_LIMIT_BYTES
        : PAGE_FORM_LIMIT_BYTES,
    ),
  );

  // Loaders and actions call the services in process, with the viewer resolved once for the request.
  async function loadContext(request: FastifyRequest, reply: FastifyReply, shared: boolean) {
    const viewer = await request.viewer();
    // SPEC 8: a session that no longer works is forgotten silently; the visitor is simply signed out.
    for (const kind of await request.staleSessionCookies()) app.siteCookies.clearSession(request, reply, kind);
    // A fresh nonce for this page's inline scripts, named in its Content-Security-Policy.
    const nonce = shared ? SHARED_PAGE_NONCE : randomBytes(18).toString('base64');
    if (!shared) reply.header('content-security-policy', pageContentSecurityPolicy(nonce, formTargets));
    const context = new RouterContextProvider();
    context.set(cspNonceContext, nonce);
    context.set(servicesContext, app.services);
    context.set(viewerContext, viewer);
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
      getLoadContext: (request, reply) => loadContext(request, reply, false),
    });
    return;
  }

  await serveBuiltFiles(app);
  const build = (await import(pathToFileURL(serverBuildPath).href)) as ServerBuild;
  const render = createRequestHandler(build, 'production');
  const cache = app.visitorCache;

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
    const version = cache.currentVersion;
    const response = await render(createRequest(request, reply), await loadContext(request, reply, true));
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || response.headers.has('set-cookie') || !/^text\/(html|x-script)/.test(type)) {
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
    const compressed = encoding === 'br' ? await brotli(body, DYNAMIC_BROTLI) : await gzip(body);
    const headers = new Headers(response.headers);
    headers.set('content-encoding', encoding);
    headers.set('vary', 'Accept-Encoding');
    headers.delete('content-length');
    return sendResponse(reply, new Response(compressed, { status: response.status, headers }));
  }

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.all('*', async (request, reply) => {
    if (!isVisitorRead(request, app.siteCookies)) {
      return sendOwn(request, reply, await render(createRequest(request, reply), await loadContext(request, reply, false)));
    }
    // HEAD answers from a kept page, and never makes one (its render has no body).
    const kept: SharedAnswer | undefined = cache.lookup(`page:${request.url}`);
    if (kept) return sendShared(request, reply, kept);
    if (request.method === 'HEAD') {
      return sendResponse(reply, await render(createRequest(request, reply), await loadContext(request, reply, false)));
    }
    const answer = await cache.answer(`page:${request.url}`, () => renderForVisitors(request, reply));
    if ('share' in answer) return sendShared(request, reply, answer.share);
    return sendOwn(request, reply, answer.own!);
  });
}
