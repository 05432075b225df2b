import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastifyReactRouter } from '@mcansh/react-router-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RouterContextProvider } from 'react-router';
import type { ViteDevServer } from 'vite';
import { requestServicesContext, type RequestServices, type Viewer } from '#request-context';
import { clearSessionCookie } from '../sessions/session-cookies.ts';
import { MEMBER_COOKIE, optionalMember, STAFF_COOKIE } from '../sessions/session.plugin.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function resolveViewer(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<Viewer> {
  const [member, staffSession] = await Promise.all([optionalMember(request), app.sessions.resolve(request.cookies[STAFF_COOKIE])]);
  // SPEC 8: a session that no longer works is forgotten silently; the visitor is simply signed out.
  if (!member && request.cookies[MEMBER_COOKIE]) clearSessionCookie(reply, 'member');
  if (staffSession?.kind !== 'staff' && request.cookies[STAFF_COOKIE]) clearSessionCookie(reply, 'staff');
  return {
    member: member ? { name: member.name, email: member.email, membership_tier: member.membershipTier } : null,
    staff: staffSession?.kind === 'staff' ? { email: staffSession.staff.email } : null,
  };
}

/** Server-rendered pages (React Router framework mode) and the built client assets. */
export async function pagesPlugin(app: FastifyInstance, options: { devServer?: ViteDevServer }) {
  const serverBuildPath = path.join(projectRoot, 'build/server/index.js');
  if (!options.devServer && !fs.existsSync(serverBuildPath)) {
    // The API still works; pages say plainly what is missing instead of failing on every request.
    app.log.error('No production build of the pages: run `npm run build` before `npm start`.');
    app.all('*', async (_request, reply) =>
      reply.status(503).type('text/plain').send('The site has not been built yet: run `npm run build`, then start it again.'),
    );
    return;
  }
  await app.register(fastifyReactRouter, {
    devServer: options.devServer,
    serverBuildPath,
    clientBuildDirectory: path.join(projectRoot, 'build/client'),
    assetCacheControl: 'public, max-age=31536000, immutable',
    fileCacheControl: 'public, max-age=3600',
    async getLoadContext(request, reply) {
      const forwarded: Record<string, string> = {};
      if (request.headers.cookie) forwarded.cookie = request.headers.cookie;
      if (request.headers.authorization) forwarded.authorization = request.headers.authorization;
      const services: RequestServices = {
        viewer: await resolveViewer(app, request, reply),
        async api<T>(apiPath: string) {
          const response = await app.inject({ method: 'GET', url: apiPath, headers: forwarded });
          let data: unknown;
          try {
            data = response.json();
          } catch {
            data = null;
          }
          return { status: response.statusCode, ok: response.statusCode < 400, data: data as T };
        },
      };
      const context = new RouterContextProvider();
      context.set(requestServicesContext, services);
      return context;
    },
  });
}
