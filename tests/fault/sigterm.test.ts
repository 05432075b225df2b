import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  cleanupAll,
  describeOutcome,
  freeCourseIds,
  now,
  offenders,
  ok,
  pollUntil,
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

// One process under many concurrent requests gets SIGTERM (a deploy, a scale-down) while it is behind
// on its connections: every request sent before the signal gets its normal answer, readiness says
// "stopping" as soon as the process is, and it exits with code 0 within 30 s. Requests sent after
// the signal may be refused; they are only counted.
//
// "Sent" is when the client wrote the request to a connection (`Outcome.sentAt`), not when fetch was
// called: a fetch called a moment before the signal may open its connection and send only after it.
// Being behind is made sure of: the process is stopped (SIGSTOP) for a moment before the signal, as a
// process starved of CPU is, so requests wait unread in their connections and new connections wait in
// the listening socket's queue, unaccepted, when the signal arrives. Some loops read, opening a
// connection per request (`Connection: close`), so there are always some of those.

const EXIT_WITHIN_MS = 30_000;
/** How long the process is stopped before the signal: the requests sent meanwhile wait for it. */
const BEHIND_MS = 200;
/** The process says it is stopping (answers close their connections) within this long of the signal. */
const DRAINING_WITHIN_MS = 2_000;
const KEEP_ALIVE_LOOPS = 20;
const OWN_CONNECTION_LOOPS = 8;
const OWN_CONNECTION = ' (own connection)';

let server: ServerProcess;
let outcomes: Outcome[] = [];
let readyBefore: Outcome | undefined;
const readyAfter: Outcome[] = [];
let t0 = 0;
let signalAt = 0;
let drainingSeenAt: number | undefined;
let exitCode: number | null | 'still running' = 'still running';
let exitedAt: number | undefined;

afterAll(cleanupAll);

/**
 * GET /readyz over one kept-alive connection, as a balancer's health check: opened before the signal,
 * it is still open once the process stops listening, so readiness is asked of the stopping process
 * itself rather than refused at the door.
 */
const healthCheck = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => healthCheck.destroy());

function readyz(target: ServerProcess): Promise<Outcome> {
  const startedAt = now();
  const base = { process: target.name, method: 'GET', route: '/readyz (health check)', path: '/readyz', startedAt };
  return new Promise((resolve) => {
    const request = http.get(`${target.url}/readyz`, { agent: healthCheck, timeout: 5000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        const at = now();
        let detail: string | undefined;
        try {
          detail = (JSON.parse(text) as { detail?: string }).detail;
        } catch {
          detail = undefined;
        }
        const requestId = response.headers['x-request-id'];
        resolve({
          ...base,
          at,
          durationMs: at - startedAt,
          status: response.statusCode,
          detail,
          requestId: typeof requestId === 'string' ? requestId : null,
        });
      });
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const at = now();
      resolve({ ...base, at, durationMs: at - startedAt, error: error.code ?? error.message });
    });
  });
}

/** Sent before the signal and answered (or failed) after it: what the process had to finish. */
const inFlightAtSignal = () =>
  outcomes.filter((outcome) => outcome.sentAt !== undefined && outcome.sentAt < signalAt && outcome.at >= signalAt);

beforeAll(async () => {
  const cluster = await startPostgres();
  server = await startServer({ name: 'A', databaseUrl: cluster.url });
  const members = await registerMembers(server, cluster, 1 + KEEP_ALIVE_LOOPS + OWN_CONNECTION_LOOPS, { label: 'sigterm' });
  const author = members.shift()!;
  const courseIds = await freeCourseIds(server);
  const first = await call(server, 'POST', '/api/community/posts', {
    token: author.token,
    address: author.address,
    body: { title: 'A thread to reply to', body: 'Replies go here.' },
  });
  if (first.status !== 201) throw new Error(`could not create a post to reply to: ${describeOutcome(first)}`);
  const postIds = [(first.json as { id: string }).id];

  const keepAlive = startLoad({
    targets: [server],
    loopsPerTarget: KEEP_ALIVE_LOOPS,
    members: members.slice(0, KEEP_ALIVE_LOOPS),
    courseIds,
    postIds,
    timeoutMs: 8000,
  });
  const ownConnections = startLoad({
    targets: [server],
    loopsPerTarget: OWN_CONNECTION_LOOPS,
    members: members.slice(KEEP_ALIVE_LOOPS),
    courseIds,
    postIds,
    timeoutMs: 8000,
    // Quick reads: when the process stops, each of these loops is soon waiting on a new connection.
    mix: { courses: 1, me: 1, login: 0, enrol: 0, post: 0, reply: 0 },
    freshConnections: true,
  });
  t0 = now();
  await sleep(2500);
  readyBefore = await readyz(server);
  await sleep(500);

  // Behind on its connections when the signal comes: stopped, while the load goes on sending.
  server.kill('SIGSTOP');
  await sleep(BEHIND_MS);
  signalAt = now();
  server.kill('SIGTERM');
  server.kill('SIGCONT');
  const exited = server.exited.then((code) => {
    exitedAt = now();
    exitCode = code;
  });
  // Once its answers close their connections, the process is stopping: readiness must say so from
  // then on (a request it read before it handled the signal may still have been answered as ready).
  drainingSeenAt = await pollUntil(
    async () => keepAlive.outcomes.some((outcome) => outcome.at >= signalAt && outcome.connectionClose),
    DRAINING_WITHIN_MS,
    5,
  );
  if (drainingSeenAt !== undefined) {
    for (const delay of [0, 200, 500]) {
      await sleep(Math.max(0, delay - (now() - drainingSeenAt)));
      if (exitedAt === undefined) readyAfter.push(await readyz(server));
    }
  }
  await Promise.race([exited, sleep(EXIT_WITHIN_MS - (now() - signalAt))]);
  const [kept, own] = await Promise.all([keepAlive.stop(), ownConnections.stop()]);
  outcomes = [...kept, ...own.map((outcome) => ({ ...outcome, route: `${outcome.route}${OWN_CONNECTION}` }))];

  const inFlight = inFlightAtSignal();
  const sentAfter = outcomes.filter((outcome) => outcome.at >= signalAt && !inFlight.includes(outcome));
  printPhases(
    'SIGTERM under load, the process behind on its connections (answers by when they arrived)',
    outcomes,
    [
      { name: 'before the signal', from: t0, to: signalAt },
      { name: 'after the signal', from: signalAt, to: now() + 1 },
    ],
    t0,
  );
  console.log(
    [
      `sent before the signal and answered after it: ${inFlight.length}`,
      summarize(inFlight),
      `fetch called before the signal but sent after it, or never: ${sentAfter.filter((outcome) => outcome.startedAt < signalAt).length}`,
      'sent after the signal (counted, not judged):',
      summarize(sentAfter),
      `answers closing their connections from ${drainingSeenAt === undefined ? 'never' : `${Math.round(drainingSeenAt - signalAt)} ms after the signal`}`,
      `/readyz before the signal: ${readyBefore ? describeOutcome(readyBefore) : 'none'}; once stopping: ${readyAfter.map((outcome) => describeOutcome(outcome)).join(', ') || 'none'}`,
      `exit: ${exitCode} ${exitedAt === undefined ? `(not within ${EXIT_WITHIN_MS / 1000} s)` : `${Math.round(exitedAt - signalAt)} ms after the signal`}`,
      `server output:\n${summarizeOutput(server.output())}`,
    ].join('\n'),
  );
});

describe('SIGTERM under load, one process behind on its connections', () => {
  it('answers everything with 2xx before the signal (the harness and the load are sound)', () => {
    const before = outcomes.filter((outcome) => outcome.at < signalAt);
    expect(before.length).toBeGreaterThan(100);
    expect(offenders(before, ok, t0)).toEqual([]);
  });

  it('gives every request sent before the signal its normal answer (no reset, no 503), those on new connections too', () => {
    const inFlight = inFlightAtSignal();
    expect(inFlight.length, 'requests sent before the signal and not answered by then').toBeGreaterThanOrEqual(10);
    // Requests on connections of their own were waiting to be accepted when the signal came.
    const onOwnConnections = inFlight.filter((outcome) => outcome.route.endsWith(OWN_CONNECTION));
    expect(onOwnConnections.length, 'of them, on a new connection of their own').toBeGreaterThanOrEqual(OWN_CONNECTION_LOOPS / 2);
    const bad = offenders(inFlight, ok, signalAt);
    expect(
      bad,
      `${bad.length} of ${inFlight.length} requests sent before the signal did not get their answer (times relative to it)`,
    ).toEqual([]);
  });

  it('starts stopping right after the signal: its answers close their connections, and /readyz answers 503 when it still answers at all', () => {
    expect(readyBefore?.status, '/readyz before the signal').toBe(200);
    expect(drainingSeenAt, `an answer closing its connection within ${DRAINING_WITHIN_MS} ms of the signal`).toBeDefined();
    const answered = readyAfter.filter((outcome) => outcome.status !== undefined);
    // The first at least, over the health check's connection opened before the signal.
    expect(answered.length, '/readyz answers once stopping').toBeGreaterThan(0);
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
