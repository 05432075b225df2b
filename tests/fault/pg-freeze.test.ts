import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  cleanupAll,
  databaseUnavailable,
  describeOutcome,
  freeCourseIds,
  now,
  offenders,
  ok,
  pending,
  pollUntil,
  printPhases,
  registerMembers,
  sleep,
  startLoad,
  startPostgres,
  startServer,
  summarize,
  summarizeOutput,
  waitForReadsAndWrites,
  withoutRequestId,
  type Outcome,
  type PostgresCluster,
  type ServerProcess,
} from './harness.ts';

// One process, a light load, and the whole PostgreSQL cluster frozen (SIGSTOP) for 10 s: its
// connections stay open and nothing answers, the worst kind of outage. Clients must still hear
// back within 5 s, readiness must say "not ready" while liveness stays fine, and service must
// come back after the thaw.

const FREEZE_MS = 10_000;
const ANSWER_WITHIN_MS = 5_000;
const NOT_READY_WITHIN_MS = 3_000;
const RECOVERY_MS = 10_000;

let cluster: PostgresCluster;
let server: ServerProcess;
let outcomes: Outcome[] = [];
const probes: Outcome[] = [];
const health: Outcome[] = [];
let t0 = 0;
let frozenAt = 0;
let thawedAt = 0;
let recoveredAt: number | undefined;
let readyAgainAt: number | undefined;
let stillRunning = false;

afterAll(cleanupAll);

beforeAll(async () => {
  cluster = await startPostgres();
  server = await startServer({ name: 'A', databaseUrl: cluster.url });
  const members = await registerMembers(server, cluster, 9, { label: 'freeze' });
  const prober = members.shift()!;
  const courseIds = await freeCourseIds(server);
  const first = await call(server, 'POST', '/api/community/posts', {
    token: prober.token,
    address: prober.address,
    body: { title: 'A thread to reply to', body: 'Replies go here.' },
  });
  if (first.status !== 201) throw new Error(`could not create a post to reply to: ${describeOutcome(first)}`);

  // /readyz and /livez every 250 ms, each on its own (a hung probe does not delay the next).
  let probing = true;
  const inFlight: Promise<void>[] = [];
  const probeLoop = (async () => {
    while (probing) {
      for (const path of ['/readyz', '/livez']) {
        inFlight.push(call(server, 'GET', path, { timeoutMs: 8000 }).then((outcome) => void health.push(outcome)));
      }
      await sleep(250);
    }
  })();

  const load = startLoad({
    targets: [server],
    loopsPerTarget: 4,
    members,
    courseIds,
    postIds: [(first.json as { id: string }).id],
    thinkMs: 100,
    timeoutMs: 8000,
  });
  t0 = now();
  await sleep(2000);

  frozenAt = now();
  await cluster.freeze();
  try {
    await sleep(FREEZE_MS);
  } finally {
    await cluster.thaw();
    thawedAt = now();
  }
  [recoveredAt, readyAgainAt] = await Promise.all([
    waitForReadsAndWrites(server, prober, courseIds[0]!, { timeoutMs: RECOVERY_MS + 2000, sink: probes }),
    pollUntil(async () => (await call(server, 'GET', '/readyz', { timeoutMs: 5000 })).status === 200, RECOVERY_MS + 2000, 250),
  ]);
  await sleep(1000);
  outcomes = await load.stop();
  probing = false;
  await probeLoop;
  await Promise.all(inFlight);
  stillRunning = await pending(server.exited);

  printPhases(
    'PostgreSQL frozen for 10 s under a light load (answers by when they arrived)',
    [...outcomes, ...probes, ...health],
    [
      { name: 'before the freeze', from: t0, to: frozenAt },
      { name: 'frozen', from: frozenAt, to: thawedAt },
      { name: 'thawed', from: thawedAt, to: now() + 1 },
    ],
    t0,
  );
  const seconds = (at: number | undefined, from: number) => (at === undefined ? 'never' : `${((at - from) / 1000).toFixed(1)} s after`);
  const firstNotReady = health.find((outcome) => outcome.path === '/readyz' && outcome.startedAt >= frozenAt && outcome.status !== 200);
  console.log(
    `first non-200 /readyz answer: ${firstNotReady ? `${describeOutcome(firstNotReady)}, ${seconds(firstNotReady.at, frozenAt)} the freeze` : 'none'}; ` +
      `reads and writes 2xx again ${seconds(recoveredAt, thawedAt)} the thaw; /readyz 200 again ${seconds(readyAgainAt, thawedAt)} the thaw`,
  );
  console.log(`server output:\n${summarizeOutput(server.output())}`);
});

describe('PostgreSQL frozen for 10 s, one process', () => {
  it('answers everything with 2xx before the freeze, /readyz and /livez included (the harness and the load are sound)', () => {
    const before = [...outcomes, ...health].filter((outcome) => outcome.at < frozenAt);
    expect(before.length).toBeGreaterThan(20);
    expect(offenders(before, ok, t0)).toEqual([]);
  });

  it('answers every request within 5 s, with 2xx or a 503 DATABASE_UNAVAILABLE with Retry-After (no hang, no 500)', () => {
    const all = [...outcomes, ...probes];
    const bad = offenders(all, (outcome) => (ok(outcome) || databaseUnavailable(outcome)) && outcome.durationMs <= ANSWER_WITHIN_MS, t0);
    expect(
      bad.slice(0, 40),
      `${bad.length} of ${all.length} requests hung or failed:\n${summarize(all.filter((o) => o.at >= frozenAt))}`,
    ).toEqual([]);
  });

  it('turns /readyz non-200 within 3 s of the freeze (from 200 before it)', () => {
    const readyBefore = health.filter((outcome) => outcome.path === '/readyz' && outcome.at < frozenAt);
    expect(readyBefore.length).toBeGreaterThan(0);
    expect(
      offenders(readyBefore, (outcome) => outcome.status === 200, t0),
      '/readyz before the freeze',
    ).toEqual([]);
    const notReady = health.filter(
      (outcome) =>
        outcome.path === '/readyz' &&
        outcome.startedAt >= frozenAt &&
        outcome.status !== undefined &&
        outcome.status !== 200 &&
        outcome.at <= frozenAt + NOT_READY_WITHIN_MS,
    );
    const during = health.filter((outcome) => outcome.path === '/readyz' && outcome.startedAt >= frozenAt && outcome.startedAt < thawedAt);
    expect(notReady.length, `/readyz during the freeze:\n${summarize(during)}`).toBeGreaterThan(0);
  });

  it('keeps /livez 200 (within 2 s) throughout', () => {
    const livez = health.filter((outcome) => outcome.path === '/livez');
    expect(livez.length).toBeGreaterThan(40);
    expect(offenders(livez, (outcome) => outcome.status === 200 && outcome.durationMs < 2000, t0).slice(0, 20)).toEqual([]);
  });

  it('answers reads and writes with 2xx again, and /readyz 200, within 10 s of the thaw', () => {
    expect(stillRunning, `the server exited (${server.howExited()}):\n${server.output().slice(-3000)}`).toBe(true);
    expect(recoveredAt === undefined ? Infinity : recoveredAt - thawedAt, 'ms until reads and writes were 2xx again').toBeLessThanOrEqual(
      RECOVERY_MS,
    );
    expect(readyAgainAt === undefined ? Infinity : readyAgainAt - thawedAt, 'ms until /readyz was 200 again').toBeLessThanOrEqual(
      RECOVERY_MS,
    );
  });

  it('gives every answer an X-Request-Id (a UUID)', () => {
    const missing = withoutRequestId([...outcomes, ...probes, ...health]);
    expect(missing.slice(0, 10), `${missing.length} answers without a UUID X-Request-Id`).toEqual([]);
  });
});
