import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  cleanupAll,
  describeOutcome,
  freeCourseIds,
  now,
  offenders,
  ok,
  printPhases,
  registerMembers,
  sleep,
  startLoad,
  startPostgres,
  startServer,
  summarize,
  summarizeOutput,
  withoutRequestId,
  type Outcome,
  type ServerProcess,
} from './harness.ts';

// One process under many concurrent requests gets SIGTERM (a deploy, a scale-down): every request
// it was handling gets its normal answer, readiness says "stopping" at once, and it exits with
// code 0 within 30 s. Requests sent after the signal may be refused; they are only counted.

const EXIT_WITHIN_MS = 30_000;

let server: ServerProcess;
let outcomes: Outcome[] = [];
let readyBefore: Outcome | undefined;
const readyAfter: Outcome[] = [];
let t0 = 0;
let signalAt = 0;
let exitCode: number | null | 'still running' = 'still running';
let exitedAt: number | undefined;

afterAll(cleanupAll);

beforeAll(async () => {
  const cluster = await startPostgres();
  server = await startServer({ name: 'A', databaseUrl: cluster.url });
  const members = await registerMembers(server, cluster, 21, { label: 'sigterm' });
  const author = members.shift()!;
  const courseIds = await freeCourseIds(server);
  const first = await call(server, 'POST', '/api/community/posts', {
    token: author.token,
    address: author.address,
    body: { title: 'A thread to reply to', body: 'Replies go here.' },
  });
  if (first.status !== 201) throw new Error(`could not create a post to reply to: ${describeOutcome(first)}`);

  const load = startLoad({
    targets: [server],
    loopsPerTarget: 20,
    members,
    courseIds,
    postIds: [(first.json as { id: string }).id],
    timeoutMs: 8000,
  });
  t0 = now();
  await sleep(2500);
  readyBefore = await call(server, 'GET', '/readyz', { timeoutMs: 5000 });
  await sleep(500);

  signalAt = now();
  server.kill('SIGTERM');
  const exited = server.exited.then((code) => {
    exitedAt = now();
    exitCode = code;
  });
  // Readiness right after the signal, and a little later, while the process may still accept.
  for (const delay of [20, 200, 500]) {
    await sleep(delay - (now() - signalAt));
    if (exitedAt === undefined) readyAfter.push(await call(server, 'GET', '/readyz', { timeoutMs: 5000 }));
  }
  await Promise.race([exited, sleep(EXIT_WITHIN_MS - (now() - signalAt))]);
  outcomes = await load.stop();

  const inFlight = outcomes.filter((outcome) => outcome.startedAt < signalAt && outcome.at >= signalAt);
  printPhases(
    'SIGTERM under load (answers by when they arrived)',
    outcomes,
    [
      { name: 'before the signal', from: t0, to: signalAt },
      { name: 'after the signal', from: signalAt, to: now() + 1 },
    ],
    t0,
  );
  console.log(
    [
      `in flight when the signal was sent: ${inFlight.length}`,
      summarize(inFlight),
      'sent after the signal (counted, not judged):',
      summarize(outcomes.filter((outcome) => outcome.startedAt >= signalAt)),
      `/readyz before the signal: ${readyBefore ? describeOutcome(readyBefore) : 'none'}; after: ${readyAfter.map((outcome) => describeOutcome(outcome)).join(', ') || 'none'}`,
      `exit: ${exitCode} ${exitedAt === undefined ? `(not within ${EXIT_WITHIN_MS / 1000} s)` : `${Math.round(exitedAt - signalAt)} ms after the signal`}`,
      `server output:\n${summarizeOutput(server.output())}`,
    ].join('\n'),
  );
});

describe('SIGTERM under load, one process', () => {
  it('answers everything with 2xx before the signal (the harness and the load are sound)', () => {
    const before = outcomes.filter((outcome) => outcome.at < signalAt);
    expect(before.length).toBeGreaterThan(100);
    expect(offenders(before, ok, t0)).toEqual([]);
  });

  it('gives every request in flight at the signal its normal answer (no reset, no 503)', () => {
    const inFlight = outcomes.filter((outcome) => outcome.startedAt < signalAt && outcome.at >= signalAt);
    expect(inFlight.length, 'requests in flight when the signal was sent').toBeGreaterThanOrEqual(10);
    const bad = offenders(inFlight, ok, signalAt);
    expect(bad, `${bad.length} of ${inFlight.length} requests in flight did not get their answer (times relative to the signal)`).toEqual(
      [],
    );
  });

  it('answers /readyz with 503 right after the signal, when it still answers at all', () => {
    expect(readyBefore?.status, '/readyz before the signal').toBe(200);
    const answered = readyAfter.filter((outcome) => outcome.status !== undefined);
    expect(answered.map((outcome) => describeOutcome(outcome))).toEqual(answered.map(() => expect.stringMatching(/^503/)));
  });

  it('exits with code 0 within 30 s', () => {
    expect(exitCode, `server output:\n${server.output().slice(-3000)}`).toBe(0);
    expect(exitedAt! - signalAt).toBeLessThanOrEqual(EXIT_WITHIN_MS);
  });

  it('gives every answer an X-Request-Id (a UUID)', () => {
    const missing = withoutRequestId([...outcomes, ...readyAfter]);
    expect(missing.slice(0, 10), `${missing.length} answers without a UUID X-Request-Id`).toEqual([]);
  });
});
