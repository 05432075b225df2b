import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  cleanupAll,
  databaseUnavailable,
  freeCourseIds,
  isPageView,
  keptPageOffenders,
  now,
  offenders,
  ok,
  pagesBuilt,
  pending,
  pollUntil,
  printPhases,
  registerMembers,
  sleep,
  startLoad,
  startPostgres,
  startRedis,
  startServer,
  summarizeOutput,
  waitForReadsAndWrites,
  withoutRequestId,
  type Outcome,
  type Phase,
  type PostgresCluster,
  type ServerProcess,
} from './harness.ts';

// Two server processes on one PostgreSQL cluster and one Redis, a mixed load on both, and
// `pg_ctl restart -m fast` twice during it: the processes live on, clients see either their answer
// or a 503 that says the database is away (with Retry-After), service is whole again within 2.5 s
// of the database (every request sent after that is answered 2xx, for a few seconds of load before
// the next restart), no database connection is left checked out, and nothing acknowledged is lost.
// With a production build, visitors view pages meanwhile, and are served the copy each process
// keeps, database or not.

/** Within this long of PostgreSQL accepting connections again, every request is answered as usual. */
const RECOVERY_MS = 2_500;
/** After that, the load goes on this long before the next restart: all of it must be 2xx. */
const SETTLED_MS = 3_000;
const METRICS_TOKEN = 'fault-lane-metrics-token';
const WITH_PAGES = pagesBuilt();
const NO_BUILD =
  'no production build of the pages (build/server/index.js): run `npm run build` before the fault lane to check visitors’ pages';

interface Restart {
  requestedAt: number;
  readyAt: number;
  /** Per process: when a write and a read both answered 2xx again. */
  recoveredAt: Record<string, number | undefined>;
}

let cluster: PostgresCluster;
let servers: ServerProcess[] = [];
const restarts: Restart[] = [];
let outcomes: Outcome[] = [];
const probes: Outcome[] = [];
let acknowledged: { posts: string[]; replies: string[] } = { posts: [], replies: [] };
let stored: { posts: Set<string>; replies: Set<string> } = { posts: new Set(), replies: new Set() };
let livez: Outcome[] = [];
let stillRunning: Record<string, boolean> = {};
let t0 = 0;
let phases: Phase[] = [];
let inUseAtRest: Record<string, number | undefined> = {};
/** What the database said the site's connections were doing then (for a failure's message). */
let connectionsAtRest: unknown[] = [];

/**
 * The fewest database connections a process had checked out over looks at /metrics for up to 5 s
 * (undefined: no answer). A connection lost for good stays checked out however long one looks; a
 * background job's, or the versions' poll, only for a moment, which a busy machine stretches.
 */
async function connectionsInUseAtRest(server: ServerProcess): Promise<number | undefined> {
  let fewest: number | undefined;
  for (let look = 0; look < 20; look++) {
    if (look > 0) await sleep(250);
    try {
      const answer = await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        signal: AbortSignal.timeout(5000),
      });
      const match = /^db_pool_connections\{state="in_use"\} (\d+)$/m.exec(await answer.text());
      if (match) fewest = Math.min(fewest ?? Infinity, Number(match[1]));
    } catch {
      // no answer this time
    }
    if (fewest === 0) break;
  }
  return fewest;
}

afterAll(cleanupAll);

beforeAll(async () => {
  cluster = await startPostgres();
  const redis = await startRedis();
  const options = { databaseUrl: cluster.url, redisUrl: redis.url, env: { METRICS_TOKEN } };
  // One after the other: both migrate under an advisory lock.
  const a = await startServer({ name: 'A', ...options });
  const b = await startServer({ name: 'B', ...options });
  servers = [a, b];

  const members = await registerMembers(a, cluster, 62, { label: 'restart' });
  const probers = members.splice(0, 2);
  const courseIds = await freeCourseIds(a);
  // Two posts to reply to from the start; the load adds its own.
  const postIds: string[] = [];
  for (const title of ['First fault thread', 'Second fault thread']) {
    const created = await call(a, 'POST', '/api/community/posts', {
      token: probers[0]!.token,
      address: probers[0]!.address,
      body: { title, body: `${title}, for replies` },
    });
    if (created.status !== 201) throw new Error(`could not create a post to reply to: ${created.status} ${created.detail}`);
    postIds.push((created.json as { id: string }).id);
  }

  const load = startLoad({
    targets: servers,
    loopsPerTarget: 6,
    members,
    courseIds,
    postIds,
    thinkMs: 20,
    mix: { post: 4 },
    pageViews: WITH_PAGES,
  });
  t0 = now();
  // At least 2.5 s of load, and enough answers to judge it by: a busy machine warms the processes up slower.
  await sleep(2500);
  await pollUntil(async () => load.outcomes.length > 150, 10_000, 100);

  for (let round = 0; round < 2; round++) {
    const { requestedAt, readyAt } = await cluster.restart('fast');
    const recovered = await Promise.all(
      servers.map((server, index) =>
        waitForReadsAndWrites(server, probers[index]!, courseIds[0]!, { timeoutMs: RECOVERY_MS + 2000, sink: probes }),
      ),
    );
    restarts.push({ requestedAt, readyAt, recoveredAt: Object.fromEntries(servers.map((server, i) => [server.name, recovered[i]])) });
    // The load goes on, settled, before the next restart (or the end).
    await sleep(Math.max(0, readyAt + RECOVERY_MS + SETTLED_MS - now()));
  }
  outcomes = await load.stop();
  const end = now();
  acknowledged = { posts: load.posts, replies: load.replies };
  // With the load stopped, every connection of each pool is back in it (a few looks: a background
  // job may hold one for a moment).
  inUseAtRest = Object.fromEntries(await Promise.all(servers.map(async (server) => [server.name, await connectionsInUseAtRest(server)])));
  connectionsAtRest = await cluster.query(
    `select pid, state, backend_start, xact_start, state_change, left(query, 120) as query from pg_stat_activity
      where application_name = 'realtypocket' order by state_change`,
  );

  livez = await Promise.all(servers.map((server) => call(server, 'GET', '/livez', { timeoutMs: 5000 })));
  stillRunning = Object.fromEntries(await Promise.all(servers.map(async (server) => [server.name, await pending(server.exited)])));
  const [posts, replies] = await Promise.all([
    cluster.query<{ id: string }>('select id from community_posts where id = any($1)', [acknowledged.posts]),
    cluster.query<{ id: string }>('select id::text as id from community_replies where id::text = any($1)', [acknowledged.replies]),
  ]);
  stored = { posts: new Set(posts.map((row) => row.id)), replies: new Set(replies.map((row) => row.id)) };

  const [first, second] = restarts as [Restart, Restart];
  phases = [
    { name: 'before the first restart', from: t0, to: first.requestedAt },
    { name: 'restart 1: PostgreSQL down', from: first.requestedAt, to: first.readyAt },
    { name: 'restart 1: PostgreSQL up again', from: first.readyAt, to: second.requestedAt },
    { name: 'restart 2: PostgreSQL down', from: second.requestedAt, to: second.readyAt },
    { name: 'restart 2: PostgreSQL up again', from: second.readyAt, to: end + 1 },
  ];
  printPhases('PostgreSQL restarts under load (answers by when they arrived)', [...outcomes, ...probes], phases, t0);
  console.log(
    restarts
      .map(
        (restart, i) =>
          `restart ${i + 1}: pg_ctl took ${Math.round(restart.readyAt - restart.requestedAt)} ms; 2xx again ` +
          Object.entries(restart.recoveredAt)
            .map(([name, at]) => `${name}: ${at === undefined ? 'never' : `${Math.round(at - restart.readyAt)} ms after`}`)
            .join(', '),
      )
      .join('\n'),
  );
  console.log(
    `acknowledged: ${acknowledged.posts.length} posts (${stored.posts.size} stored), ${acknowledged.replies.length} replies (${stored.replies.size} stored)`,
  );
  console.log(`database connections checked out with the load stopped: ${JSON.stringify(inUseAtRest)}`);
  for (const server of servers) console.log(`server ${server.name} output:\n${summarizeOutput(server.output())}`);
});

describe('PostgreSQL restarted twice under load, two processes', () => {
  it('no server process exits, and both still answer /livez', () => {
    for (const server of servers) {
      expect(stillRunning[server.name], `server ${server.name} exited (${server.howExited()}):\n${server.output().slice(-3000)}`).toBe(
        true,
      );
    }
    expect(livez.map((answer) => `${answer.process} ${answer.status ?? answer.error}`)).toEqual(['A 200', 'B 200']);
  });

  it('answers everything with 2xx before the first restart (the harness and the load are sound)', () => {
    const before = [...outcomes, ...probes].filter((outcome) => outcome.at < restarts[0]!.requestedAt);
    expect(before.length).toBeGreaterThan(100);
    expect(offenders(before, ok, t0)).toEqual([]);
  });

  it('answers every request with 2xx or a 503 DATABASE_UNAVAILABLE with Retry-After: no 500, reset, network error or timeout', () => {
    const bad = offenders([...outcomes, ...probes], (outcome) => ok(outcome) || databaseUnavailable(outcome), t0);
    expect(bad.slice(0, 40), `${bad.length} answers were neither 2xx nor a proper 503`).toEqual([]);
  });

  it('answers 2xx again, reads and writes on both processes, within 2.5 s of PostgreSQL accepting connections', () => {
    for (const [i, restart] of restarts.entries()) {
      for (const server of servers) {
        const at = restart.recoveredAt[server.name];
        const took = at === undefined ? Infinity : at - restart.readyAt;
        expect(took, `restart ${i + 1}, server ${server.name}: ms until reads and writes were 2xx again`).toBeLessThanOrEqual(RECOVERY_MS);
      }
    }
  });

  it('answers 2xx to every request sent 2.5 s or more after PostgreSQL accepts connections again, until the next restart', () => {
    for (const [i, restart] of restarts.entries()) {
      // Sent once recovery is over, and answered before the next restart began.
      const settled = outcomes.filter(
        (outcome) => outcome.startedAt >= restart.readyAt + RECOVERY_MS && outcome.at < (restarts[i + 1]?.requestedAt ?? Infinity),
      );
      expect(settled.length, `restart ${i + 1}: requests sent after recovery`).toBeGreaterThan(100);
      const bad = offenders(settled, ok, restart.readyAt);
      expect(bad.slice(0, 20), `restart ${i + 1}: ${bad.length} of ${settled.length} (times relative to PostgreSQL's return)`).toEqual([]);
    }
  });

  it('leaves no database connection checked out: none was lost to a query cut by the restarts', () => {
    expect(inUseAtRest, JSON.stringify(connectionsAtRest, null, 1)).toEqual(Object.fromEntries(servers.map((server) => [server.name, 0])));
  });

  it('loses no acknowledged write: every post and reply answered 201 is in the database', () => {
    expect(acknowledged.posts.length).toBeGreaterThan(10);
    expect(acknowledged.posts.filter((id) => !stored.posts.has(id))).toEqual([]);
    expect(acknowledged.replies.filter((id) => !stored.replies.has(id))).toEqual([]);
  });

  it('answers visitors’ pages with 200 throughout, from the copy each process kept while PostgreSQL was restarting', (context) => {
    context.skip(!WITH_PAGES, NO_BUILD);
    const views = outcomes.filter(isPageView);
    expect(views.length).toBeGreaterThan(50);
    expect(offenders(views, (outcome) => outcome.status === 200, t0).slice(0, 20)).toEqual([]);
    // While PostgreSQL was away: from its stop until both processes answered reads and writes again.
    const outages = restarts.map((restart) => ({
      from: restart.requestedAt,
      to: Math.max(restart.readyAt, ...Object.values(restart.recoveredAt).map((at) => at ?? restart.readyAt + RECOVERY_MS)),
    }));
    const { during, notKept } = keptPageOffenders(views, outages, t0);
    expect(during, 'page views answered while PostgreSQL was away').toBeGreaterThan(0);
    expect(notKept.slice(0, 20), 'page views during an outage not answered with a copy kept before it').toEqual([]);
  });

  it('gives every answer an X-Request-Id (a UUID)', () => {
    const missing = withoutRequestId([...outcomes, ...probes, ...livez]);
    expect(missing.slice(0, 10), `${missing.length} answers without a UUID X-Request-Id`).toEqual([]);
  });
});
