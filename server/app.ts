import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { ViteDevServer } from 'vite';
import type { Database, DatabaseHandle } from '../db/client.ts';
import type { Config } from './config.ts';
import { adminAuthRoutes } from './admin/admin-auth.routes.ts';
import { adminPlugin } from './admin/admin.plugin.ts';
import { staffSessionRoutes } from './admin/staff-session.routes.ts';
import { analyticsRoutes } from './analytics/analytics.routes.ts';
import { communityRoutes } from './community/community.routes.ts';
import { podcastRoutes } from './podcast/podcast.routes.ts';
import { resourcesRoutes } from './resources/resources.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { learningRoutes } from './learning/learning.routes.ts';
import { contactRoutes } from './contact/contact.routes.ts';
import { contentRoutes } from './content/content.routes.ts';
import { coursesRoutes } from './courses/courses.routes.ts';
import { localFilesRoutes } from './files/files.routes.ts';
import type { FileStorage } from './files/storage.ts';
import { healthRoutes } from './health/health.routes.ts';
import { HttpError, registerErrorHandling } from './http/errors.ts';
import { pagesPlugin } from './pages/pages.plugin.ts';
import sessionPlugin from './sessions/session.plugin.ts';
import { SessionService } from './sessions/session.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    storage: FileStorage;
    /** Shared store for rate limits when REDIS_URL is set. */
    redis: Redis | undefined;
  }
}

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  storage: FileStorage;
  /** Serve the server-rendered pages: false for API-only use (tests), or the Vite dev server in development. */
  pages: false | { devServer?: ViteDevServer };
  logger?: FastifyServerOptions['logger'];
}

function trustProxySetting(value: string | undefined): FastifyServerOptions['trustProxy'] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    // Trust this many proxy hops in front of the server.
    const hops = Number(value);
    return (_address: string, hop: number) => hop < hops;
  }
  return value.split(',').map((entry) => entry.trim());
}

/** Builds the whole server: plugins in order, API routes, pages last (they catch every other path). */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    // The client address comes from the socket unless a proxy in front is configured and trusted.
    trustProxy: trustProxySetting(config.trustProxy),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
  });

  app.decorate('config', config);
  app.decorate('database', deps.database.db);
  app.decorate('storage', deps.storage);

  registerErrorHandling(app);

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // React Router's hydration data is an inline script.
        scriptSrc: ["'self'", "'unsafe-inline'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        mediaSrc: ["'self'", 'https:', 'blob:'],
        frameSrc: ['https://open.spotify.com', 'https://www.youtube-nocookie.com', 'https://player.vimeo.com'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  app.decorate('redis', redis);
  if (redis) {
    redis.on('error', (error) => app.log.warn({ err: error }, 'redis error'));
    // Give Redis a moment to connect so the first requests are counted too; never block start for long.
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, 3000);
      redis.once('ready', done);
    });
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    redis,
    // When Redis is briefly unreachable, serve rather than refuse everyone.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many attempts. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`),
  });

  await app.register(sessionPlugin, {
    sessions: new SessionService(deps.database.db, { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs }),
  });

  await app.register(healthRoutes, { ping: deps.database.ping });
  await app.register(authRoutes);
  await app.register(learningRoutes);
  await app.register(contentRoutes);
  await app.register(contactRoutes);
  await app.register(coursesRoutes);
  await app.register(podcastRoutes);
  await app.register(resourcesRoutes);
  await app.register(communityRoutes);
  await app.register(analyticsRoutes);
  await app.register(localFilesRoutes);
  await app.register(staffSessionRoutes);
  await app.register(adminAuthRoutes);
  await app.register(adminPlugin);

  // Unknown API paths answer JSON; every other path falls through to the pages' own 404 page.
  app.all('/api/*', async (request, reply) =>
    reply.status(404).send({ detail: `There is no API endpoint at ${request.method} ${request.url.split('?')[0]}.` }),
  );
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ detail: 'Not found.' }));

  if (deps.pages) await app.register(pagesPlugin, deps.pages);
  return app;
}
