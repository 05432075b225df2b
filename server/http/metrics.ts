import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../../db/client.ts';
import { ownPageLookups, type OwnLookups } from '../cache/own-page-cache.ts';
import { ownAnswerLookups } from '../cache/own-answers.ts';
import { jobRecords, type JobRecord } from '../background-work.ts';
import type { OutboxRepository } from '../mail/outbox.repository.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The route a request matched, never its raw path (ids would make every URL a series of its own). */
function routeLabel(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (!url) return 'unmatched';
  return url === '*' ? 'pages' : url;
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Counts an answer and its time, by method, route pattern and status. */
export type CountAnswer = (method: string, route: string, status: number, ms: number) => void;

/**
 * GET /metrics in Prometheus text format: requests and their latency by route and status, the
 * database pool, the mail outbox, the event loop and memory. Opened by `Authorization: Bearer
 * METRICS_TOKEN`; without a token set, only from the machine itself, and only when no proxy stands
 * in front (a proxy on the same machine would make every visitor look local).
 */
export function serveMetrics(
  app: FastifyInstance,
  deps: { token: string | undefined; behindProxy: boolean; database: DatabaseHandle; outbox: OutboxRepository },
): CountAnswer {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections of this process, in use or idle.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = deps.database.poolStats();
      this.set({ state: 'in_use' }, stats.total - stats.idle);
      this.set({ state: 'idle' }, stats.idle);
    },
  });
  new Gauge({
    name: 'db_pool_waiting',
    help: 'Queries waiting for a free database connection.',
    registers: [registry],
    collect() {
      this.set(deps.database.poolStats().waiting);
    },
  });
  let outboxRead: Promise<{ pending: number; oldestAgeSeconds: number }> | undefined;
  // Both outbox gauges come from one query per scrape; a database that is away leaves them unset.
  const outboxState = () =>
    (outboxRead ??= deps.outbox.depth().finally(() => {
      outboxRead = undefined;
    }));
  new Gauge({
    name: 'outbox_pending_messages',
    help: 'Emails waiting to be sent.',
    registers: [registry],
    async collect() {
      const state = await outboxState().catch(() => null);
      if (state) this.set(state.pending);
    },
  });
  new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'How long the oldest email waiting to be sent has waited.',
    registers: [registry],
    async collect() {
      const state = await outboxState().catch(() => null);
      if (state) this.set(state.oldestAgeSeconds);
    },
  });

  // Members' kept pages and API answers: lookups since start, by whether a kept copy was current.
  const lookupGauge = (name: string, help: string, lookups: OwnLookups) =>
    new Gauge({
      name,
      help,
      labelNames: ['result'] as const,
      registers: [registry],
      collect() {
        this.set({ result: 'hit' }, lookups.hits);
        this.set({ result: 'miss' }, lookups.misses);
        this.set({ result: 'shared' }, lookups.shared);
      },
    });
  lookupGauge(
    'own_page_lookups',
    "Members' own pages (the dashboard) asked for since start, by whether a kept copy was current (shared: a miss served by the render already under way).",
    ownPageLookups,
  );
  lookupGauge(
    'own_answer_lookups',
    "Members' own API reads kept for their session (the community feed and its search) asked for since start.",
    ownAnswerLookups,
  );

  // Each scheduled job and minute step (server/jobs/schedule.ts) since this process started.
  const jobGauge = (name: string, help: string, value: (record: JobRecord) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['job'] as const,
      registers: [registry],
      collect() {
        for (const [job, record] of jobRecords) this.set({ job }, value(record));
      },
    });
  jobGauge(
    'job_last_run_timestamp_seconds',
    'When each job or minute step last started (Unix time).',
    (record) => record.lastStartedAt / 1000,
  );
  jobGauge('job_last_duration_seconds', 'How long its last run took.', (record) => record.lastDurationMs / 1000);
  jobGauge('job_runs', 'Its runs since start.', (record) => record.runs);
  jobGauge('job_failures', 'Its runs that failed since start.', (record) => record.failures);

  // The label set's children, made once per method, route and status (a bounded set: routes are patterns).
  const bound = new Map<string, { count: { inc(): void }; time: { observe(value: number): void } }>();
  const countAnswer: CountAnswer = (method, route, status, ms) => {
    const key = `${method} ${status} ${route}`;
    let children = bound.get(key);
    if (!children) {
      const labels = { method, route, status: String(status) };
      children = { count: requests.labels(labels), time: latency.labels(labels) };
      bound.set(key, children);
    }
    children.count.inc();
    children.time.observe(ms / 1000);
  };
  app.addHook('onResponse', (request, reply, done) => {
    countAnswer(request.method, routeLabel(request), reply.statusCode, reply.elapsedTime);
    done();
  });

  app.get('/metrics', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const sent = request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
    const allowed = deps.token ? sameToken(sent, deps.token) : !deps.behindProxy && LOOPBACK.has(request.socket.remoteAddress ?? '');
    if (!allowed) {
      return reply
        .status(deps.token ? 401 : 403)
        .send({ detail: deps.token ? 'Metrics need the metrics token.' : 'Metrics are open to this machine only; set METRICS_TOKEN.' });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return countAnswer;
}
