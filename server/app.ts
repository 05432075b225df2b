import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { ViteDevServer } from 'vite';
import type { Database, DatabaseHandle } from '../db/client.ts';
import { accountsRoutes } from './accounts/accounts.routes.ts';
import { scheduleDataRetention } from './accounts/data-retention.ts';
import { auditRoutes } from './audit/audit.routes.ts';
import { DataVersion, versionsFor } from './cache/data-version.ts';
import { answerKeptReadsAtTheDoor, shareVisitorAnswers } from './cache/shared-api-answers.ts';
import { VisitorCache } from './cache/visitor-cache.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { billingRoutes } from './billing/billing.routes.ts';
import { StripeGateway } from './billing/stripe-gateway.ts';
import { communityRoutes } from './community/community.routes.ts';
import type { Config } from './config.ts';
import { contactRoutes } from './contact/contact.routes.ts';
import { contentRoutes } from './content/content.routes.ts';
import { coursesRoutes } from './courses/courses.routes.ts';
import { filesRoutes } from './files/files.routes.ts';
import type { FileStorage } from './files/storage.ts';
import { healthRoutes } from './health/health.routes.ts';
import { keepAnswersPrivate, refuseCrossSiteWrites } from './http/browser-guards.ts';
import { registerErrorHandling } from './http/errors.ts';
import { closeConnectionsWhileDraining } from './http/lifecycle.ts';
import { openApiDocument } from './http/openapi.ts';
import { renderApiReference } from './http/api-reference.ts';
import { recordRouteAccess } from './http/route-access.ts';
import { serveMetrics } from './http/metrics.ts';
import { answerWithRequestId, requestIdGenerator } from './http/request-id.ts';
import { FrontDoor } from './http/front-door.ts';
import { httpServerFactory, readAbsentBodiesAsEmpty } from './http/http-server.ts';
import { SiteLogController } from './http/request-log.ts';
import { paymentFormTargets, securityHeaders } from './http/security-headers.ts';
import { useZodContracts } from './http/zod.ts';
import { learningRoutes } from './learning/learning.routes.ts';
import { quizzesRoutes } from './quizzes/quizzes.routes.ts';
import { startMailWorker, type MailWorkerTiming } from './mail/mail-worker.ts';
import { createLinkMinting } from './mail/link-minting.ts';
import { createMailer } from './mail/mailer.ts';
import { createOutboxRepository } from './mail/outbox.repository.ts';
import { createMailTransport } from './mail/transport.ts';
import { membersRoutes } from './members/members.routes.ts';
import { pagesPlugin } from './pages/pages.plugin.ts';
import { podcastRoutes } from './podcast/podcast.routes.ts';
import { resourcesRoutes } from './resources/resources.routes.ts';
import { createDataAccess } from './repositories.ts';
import { createServices, type ServerServices } from './services.ts';
import { scheduleSessionPurge } from './sessions/session-purge.ts';
import { SessionService } from './sessions/session.service.ts';
import { SiteCookies } from './sessions/session-cookies.ts';
import viewerPlugin from './sessions/viewer.plugin.ts';
import { staffRoutes } from './staff/staff.routes.ts';
import { statsRoutes } from './stats/stats.routes.ts';
import { createSessionsRepository } from './sessions/sessions.repository.ts';
import { broadcastsRoutes } from './broadcasts/broadcasts.routes.ts';
import { coachingRoutes } from './coaching/coaching.routes.ts';
import { oneOnOneRoutes } from './one-on-one/one-on-one.routes.ts';
import { goalsRoutes } from './goals/goals.routes.ts';
import { licenceRoutes } from './licence/licence.routes.ts';
import { lifecycleRoutes } from './lifecycle/lifecycle.routes.ts';
import { insightsRoutes } from './insights/insights.routes.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { teamsRoutes } from './teams/teams.routes.ts';
import { scheduleTierReconciliation } from './teams/tier-reconciliation.ts';
import { createNotificationsRepository } from './notifications/notifications.repository.ts';
import { createNotifier } from './notifications/notifier.ts';
import { vapidKeys, type PushSettings } from './notifications/push-sender.ts';
import { startPushWorker } from './notifications/push-worker.ts';
import { NOTIFICATIONS } from '../common/limits.ts';
import { scheduleCoachingJobs } from './coaching/coaching-jobs.ts';
import { compressWholeAnswers } from './http/answer-compression.ts';
import { keepMembersOwnAnswers } from './cache/own-answers.ts';

/** The API's version as its description states it: raised when a change breaks a client. */
const API_VERSION = '1.0.0';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    storage: FileStorage;
    services: ServerServices;
    /** Shared store for rate limits when REDIS_URL is set. */
    redis: Redis | undefined;
    /** The work a start finishes after listening (Redis, Stripe's prices): /readyz says 'starting' until then. */
    startup: { readonly finished: Promise<void>; readonly done: boolean };
    /** The version of what visitors see, and the answers shared by every visitor while it holds. */
    dataVersion: DataVersion;
    /** Every data version the process keeps (public, member, session), read again after each write. */
    dataVersions: DataVersion[];
    visitorCache: VisitorCache;
  }
}

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  storage: FileStorage;
  /** Serve the server-rendered pages: false for API-only use (tests), or the Vite dev server in development. */
  pages: false | { devServer?: ViteDevServer };
  logger?: FastifyServerOptions['logger'];
  /** Tests shorten the mail worker's waits. */
  mailTiming?: Partial<MailWorkerTiming>;
  /**
   * Whether the minute job sends the lifecycle mails (default true). API tests that count the mail a
   * new member gets leave them out; the lifecycle tests send them by calling the step themselves.
   */
  lifecycleMail?: boolean;
}

/** How long a start waits for Stripe's plan prices before it goes on without them. */
const STRIPE_START_WAIT_MS = 3_000;

const DEFAULT_MAIL_TIMING: MailWorkerTiming = { pollMs: 5_000, retryBaseMs: 30_000 };

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

/**
 * Connects to Redis when configured; `connected` gives it a moment (the start waits for it before the
 * site is ready, so the first requests are counted there too).
 */
async function connectRedis(
  app: FastifyInstance,
  url: string | undefined,
  commandTimeoutMs: number,
): Promise<{ redis: Redis | undefined; connected: Promise<void> }> {
  if (!url) return { redis: undefined, connected: Promise.resolve() };
  // The client is loaded only when Redis is configured (a site on one server never needs it).
  const { Redis: RedisClient } = await import('ioredis');
  // Commands fail fast while Redis is away (no queue, a short timeout) and the client reconnects by
  // itself; meanwhile limits count in process (attempt-limiter.ts).
  const redis = new RedisClient(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  redis.on('error', (error) => app.log.warn({ err: error }, 'redis error'));
  const connected = new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    // Never block start for long: limits count in process while Redis is away.
    const timer = setTimeout(done, 3000);
    redis.once('ready', done);
  });
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return { redis, connected };
}

/**
 * The plan prices, found or created at start, waited for a moment only: a silent Stripe must not hold
 * the start (it goes on in the background); if Stripe cannot be reached, the first checkout tries again.
 */
async function loadStripePrices(app: FastifyInstance, stripe: StripeGateway): Promise<void> {
  const prices = stripe.catalogue().then(
    () => true,
    (error: unknown) => {
      app.log.error({ err: error }, 'could not load the Stripe prices');
      return true;
    },
  );
  if (!(await Promise.race([prices, delay(STRIPE_START_WAIT_MS).then(() => false)])))
    app.log.warn('Stripe is slow to answer; loading the plan prices in the background');
}

/** Builds the whole server: plugins in order, API routes, pages last (they catch every other path). */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  const frontDoor = new FrontDoor();
  const requestId = requestIdGenerator(config.trustProxy);
  const fastify = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    // One line per request that never carries the query string, cookies or tokens.
    logController: new SiteLogController(),
    // The client address comes from the socket unless a proxy in front is configured and trusted.
    trustProxy: trustProxySetting(config.trustProxy),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // Request ids unique across processes, or the trusted proxy's (request-id.ts); on every log line.
    genReqId: requestId,
    requestIdHeader: false,
    serverFactory: httpServerFactory(config, frontDoor),
  });
  const app = useZodContracts(fastify);

  app.decorate('config', config);
  app.decorate('database', deps.database.db);
  app.decorate('storage', deps.storage);
  registerErrorHandling(app);
  readAbsentBodiesAsEmpty(app);
  recordRouteAccess(app);
  answerWithRequestId(app);
  closeConnectionsWhileDraining(app);
  const countAnswer = serveMetrics(app, {
    token: config.metricsToken,
    behindProxy: config.trustProxy !== undefined,
    database: deps.database,
    outbox: createOutboxRepository(deps.database.db),
  });

  await app.register(cookie);
  const siteHeaders = securityHeaders(app, { production: config.isProduction, formTargets: paymentFormTargets(config.stripe) });
  const dataVersion = new DataVersion(deps.database, app.log, 'public');
  const memberDataVersion = new DataVersion(deps.database, app.log, 'member', { keyedBy: 'member' });
  const sessionDataVersion = new DataVersion(deps.database, app.log, 'session');
  const communityDataVersion = new DataVersion(deps.database, app.log, 'community', { keyedBy: 'discussion' });
  const dataVersions = [dataVersion, memberDataVersion, sessionDataVersion, communityDataVersion];
  await Promise.all(dataVersions.map((version) => version.start()));
  // Before the database closes, so no poll runs against a closed pool.
  app.addHook('preClose', async () => {
    await Promise.all(dataVersions.map((version) => version.stop()));
  });
  app.decorate('dataVersion', dataVersion);
  app.decorate('dataVersions', dataVersions);
  app.decorate('visitorCache', new VisitorCache(dataVersion, communityDataVersion));
  shareVisitorAnswers(app);
  compressWholeAnswers(app);
  // HTML and JSON go out compressed (answers kept for visitors are compressed once, beforehand; the
  // API's answers by compressWholeAnswers); what streams, by @fastify/compress.
  // Brotli's default window (4 MB) is a buffer of that size for each answer being compressed; the
  // answers are bounded pages (256 KB at most), so a 256 KB window loses nothing on them. The
  // library's own quality (4) is kept.
  await app.register(compress, {
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } },
  });
  const { redis, connected: redisConnected } = await connectRedis(app, config.redisUrl, config.redisCommandTimeoutMs);
  app.decorate('redis', redis);

  const sessions = new SessionService(
    createSessionsRepository(deps.database.db),
    { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs },
    // A kept session holds while no session was revoked and its member's account did not change.
    (memberId) => versionsFor([sessionDataVersion, memberDataVersion], memberId),
  );
  const transport = createMailTransport({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log: app.log,
    timeoutMs: config.outboundTimeoutMs,
  });
  const mailer = createMailer({
    get publicUrl() {
      return config.publicUrl;
    },
    nudge: () => worker.nudge(),
  });
  const worker = startMailWorker(
    app,
    createOutboxRepository(deps.database.db),
    transport,
    { ...DEFAULT_MAIL_TIMING, ...deps.mailTiming },
    createLinkMinting({ data: createDataAccess(deps.database.db), tokenLink: mailer.tokenLink }),
  );
  // Web push, when the site has VAPID keys (the embedded database keeps a pair of its own).
  const vapid = vapidKeys(config.push.keys, deps.database.kind === 'embedded' ? { dataDir: config.dataDir } : undefined);
  const push: PushSettings | undefined = vapid && {
    ...vapid,
    subject: config.push.subject,
    serviceOrigins: config.push.serviceOrigins,
    timeoutMs: config.outboundTimeoutMs,
  };
  const pushWorker = push && startPushWorker(app, createNotificationsRepository(deps.database.db), push, NOTIFICATIONS.pushPollMs);
  if (pushWorker) app.addHook('preClose', () => pushWorker.stop());
  const notifier = createNotifier({ mailer, nudgePush: () => pushWorker?.nudge() });
  await app.register(viewerPlugin, { sessions, cookies: new SiteCookies({ production: config.isProduction }) });
  // After the viewer plugin, whose hook checks access first; before keepAnswersPrivate, which adds the site's headers to each answer anew.
  keepMembersOwnAnswers(app);
  refuseCrossSiteWrites(app, config);
  keepAnswersPrivate(app);
  scheduleSessionPurge(app, sessions, deps.database);
  scheduleDataRetention(app, deps.database, createDataAccess(deps.database.db));
  scheduleTierReconciliation(app, deps.database, createDataAccess(deps.database.db));
  scheduleCoachingJobs(app, createDataAccess(deps.database.db), mailer, notifier, { lifecycleMail: deps.lifecycleMail });
  const stripe = config.stripe
    ? await StripeGateway.connect({ ...config.stripe, timeoutMs: config.outboundTimeoutMs }, app.log)
    : undefined;
  app.decorate(
    'services',
    createServices({
      db: deps.database.db,
      config,
      storage: deps.storage,
      sessions,
      redis,
      mailer,
      notifier,
      push,
      stripe,
      log: app.log,
      dataVersion,
      memberDataVersion,
      communityDataVersion,
    }),
  );
  const stripePrices = stripe ? loadStripePrices(app, stripe) : Promise.resolve();
  // Nothing here holds the listening: readiness waits for it instead (server/serve.ts, /readyz).
  const startup = { done: false, finished: Promise.all([redisConnected, stripePrices]).then(() => {}) };
  void startup.finished.then(() => (startup.done = true));
  app.decorate('startup', startup);

  await app.register(healthRoutes, { database: deps.database });
  for (const routes of [
    authRoutes,
    accountsRoutes,
    billingRoutes,
    coachingRoutes,
    broadcastsRoutes,
    oneOnOneRoutes,
    goalsRoutes,
    licenceRoutes,
    lifecycleRoutes,
    insightsRoutes,
    notificationsRoutes,
    teamsRoutes,
    staffRoutes,
    coursesRoutes,
    learningRoutes,
    quizzesRoutes,
    contentRoutes,
    podcastRoutes,
    resourcesRoutes,
    communityRoutes,
    contactRoutes,
    statsRoutes,
    filesRoutes,
    membersRoutes,
    auditRoutes,
  ]) {
    await app.register(routes);
  }

  // The API's description, made once from the routes as registered (server/http/openapi.ts).
  let described: ReturnType<typeof openApiDocument> | null = null;
  app.get('/api/openapi.json', async (_request, reply) => {
    described ??= openApiDocument(app.routeAccess, API_VERSION);
    return reply.header('cache-control', 'public, max-age=300').send(described);
  });
  // The same, as a page a person reads (server/http/api-reference.ts).
  let reference: ReturnType<typeof renderApiReference> | null = null;
  app.get('/api/docs', async (_request, reply) => {
    described ??= openApiDocument(app.routeAccess, API_VERSION);
    reference ??= renderApiReference(described, config.publicUrl ?? '');
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', reference.contentSecurityPolicy)
      .header('cache-control', 'public, max-age=300')
      .send(reference.html);
  });

  // Unknown API paths answer JSON; every other path falls through to the pages' own 404 page.
  app.all('/api/*', async (request, reply) =>
    reply.status(404).send({ detail: `There is no API endpoint at ${request.method} ${request.url.split('?')[0]}.` }),
  );
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ detail: 'Not found.' }));

  if (deps.pages) await app.register(pagesPlugin, deps.pages);
  answerKeptReadsAtTheDoor(app, frontDoor, { siteHeaders, requestId, countAnswer });
  return app;
}
