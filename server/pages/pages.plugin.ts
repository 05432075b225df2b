import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastifyReactRouter } from '@mcansh/react-router-fastify';
import type { FastifyInstance } from 'fastify';
import { RouterContextProvider } from 'react-router';
import type { ViteDevServer } from 'vite';
import { cspNonceContext, pageSessionContext, servicesContext, viewerContext } from '#request-context';
import { pageContentSecurityPolicy, paymentFormTargets } from '../http/security-headers.ts';
import { limitPageBodies, PAGE_FORM_LIMIT_BYTES } from './body-limit.ts';
import { createPageSession } from './page-session.ts';

// The admin's upload form: the one page form that carries files.
const UPLOAD_PAGE = '/admin/dashboard/files';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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
  await app.register(fastifyReactRouter, {
    devServer: options.devServer,
    serverBuildPath,
    clientBuildDirectory: path.join(projectRoot, 'build/client'),
    assetCacheControl: 'public, max-age=31536000, immutable',
    fileCacheControl: 'public, max-age=3600',
    // Loaders and actions call the services in process, with the viewer resolved once for the request.
    async getLoadContext(request, reply) {
      const viewer = await request.viewer();
      // SPEC 8: a session that no longer works is forgotten silently; the visitor is simply signed out.
      for (const kind of await request.staleSessionCookies()) app.siteCookies.clearSession(request, reply, kind);
      // A fresh nonce for this page's inline scripts, named in its Content-Security-Policy.
      const nonce = randomBytes(18).toString('base64');
      reply.header('content-security-policy', pageContentSecurityPolicy(nonce, formTargets));
      const context = new RouterContextProvider();
      context.set(cspNonceContext, nonce);
      context.set(servicesContext, app.services);
      context.set(viewerContext, viewer);
      context.set(
        pageSessionContext,
        createPageSession({ services: app.services, sessions: app.sessions, cookies: app.siteCookies }, viewer, request, reply),
      );
      return context;
    },
  });
}
