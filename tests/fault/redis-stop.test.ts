import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  cleanupAll,
  describeOutcome,
  freshAddress,
  now,
  ok,
  pending,
  pollUntil,
  registerMembers,
  startPostgres,
  startRedis,
  startServer,
  summarize,
  summarizeOutput,
  UUID,
  withoutRequestId,
  type Member,
  type Outcome,
  type ServerProcess,
} from './harness.ts';

// One process whose attempt limits live in Redis, and Redis stopped: guessing a password from one
// client is still refused by the 9th try (limits never fail open), while reads and the right
// password keep working; when Redis is back, the same process carries on and its limits hold.

const REFUSED_BY_TRY = 9;
const TRIES = 12;

let server: ServerProcess;
let outcomes: Outcome[] = [];
const triesWithRedis: Outcome[] = [];
const triesWithoutRedis: Outcome[] = [];
const triesAcrossReturn: Outcome[] = [];
const triesAfterRedis: Outcome[] = [];
let whileAway: Outcome[] = [];
let before: Outcome[] = [];
const after: Outcome[] = [];
let usingRedisAt: number | undefined;
let redisStartedAt = 0;
let echoed: Outcome | undefined;
let stillRunning = false;
let redisAnsweredWhileStopped = true;

afterAll(cleanupAll);

/** Wrong passwords for one account from one client address, until a 429 or `until` tries in all. */
async function guess(member: Member, address: string, tries: Outcome[], until = TRIES): Promise<Outcome[]> {
  while (tries.length < until && !tries.some((outcome) => outcome.status === 429)) {
    tries.push(
      await call(server, 'POST', '/api/auth/login', {
        address,
        body: { email: member.email, password: 'not-the-password' },
        timeoutMs: 8000,
      }),
    );
  }
  return tries;
}

/** A read of the catalogue, a read of the member's own account, and the right password of that account. */
async function normalUse(member: Member): Promise<Outcome[]> {
  const common = { token: member.token, address: member.address, timeoutMs: 8000 };
  return [
    await call(server, 'GET', '/api/courses', common),
    await call(server, 'GET', '/api/auth/me', common),
    await call(server, 'POST', '/api/auth/login', {
      address: freshAddress(),
      body: { email: member.email, password: member.password },
      timeoutMs: 8000,
    }),
  ];
}

const statuses = (tries: Outcome[]) => tries.map((outcome) => outcome.status ?? outcome.error).join(', ');
const firstRefusal = (tries: Outcome[]) => tries.findIndex((outcome) => outcome.status === 429) + 1 || Infinity;

beforeAll(async () => {
  const cluster = await startPostgres();
  const redis = await startRedis();
  server = await startServer({ name: 'A', databaseUrl: cluster.url, redisUrl: redis.url });
  const [withRedis, withoutRedis, acrossReturn, afterReturn, other] = await registerMembers(server, cluster, 5, {
    label: 'redis',
    tier: 'free',
  });

  // With Redis up: normal use works and guessing is refused by the 9th try (the limit exists).
  before = await normalUse(other!);
  await guess(withRedis!, freshAddress(), triesWithRedis);
  echoed = await call(server, 'GET', '/api/courses', { headers: { 'x-request-id': 'fault-lane-4f2a-echo' } });

  await redis.stop();
  await guess(withoutRedis!, freshAddress(), triesWithoutRedis);
  whileAway = await normalUse(other!);
  // Four guesses while Redis is away, the rest once the process uses Redis again.
  const acrossAddress = freshAddress();
  await guess(acrossReturn!, acrossAddress, triesAcrossReturn, 4);
  redisAnsweredWhileStopped = await redis.answers();

  await redis.start();
  redisStartedAt = now();
  // Back in use once a sign-in (which counts per address) left a key in the fresh Redis.
  usingRedisAt = await pollUntil(
    async () => {
      const round = await normalUse(other!);
      after.push(...round);
      return round.every(ok) && ((await redis.keyCount()) ?? 0) > 0;
    },
    15_000,
    250,
  );
  await guess(acrossReturn!, acrossAddress, triesAcrossReturn);
  await guess(afterReturn!, freshAddress(), triesAfterRedis);
  after.push(...(await normalUse(other!)));
  stillRunning = await pending(server.exited);
  outcomes = [...before, ...triesWithRedis, ...triesWithoutRedis, ...whileAway, ...triesAcrossReturn, ...after, ...triesAfterRedis];

  console.log(
    [
      '== Redis stopped (wrong passwords for one account from one client, in order)',
      `  Redis up:                            ${statuses(triesWithRedis)}`,
      `  Redis stopped:                       ${statuses(triesWithoutRedis)}`,
      `  4 while stopped, then Redis in use:  ${statuses(triesAcrossReturn)}`,
      `  Redis back in use:                   ${statuses(triesAfterRedis)}`,
      '  normal use with Redis up:',
      summarize(before),
      '  normal use with Redis stopped:',
      summarize(whileAway),
      `  normal use once Redis started again (Redis in use again ${usingRedisAt === undefined ? 'never' : `${Math.round(usingRedisAt - redisStartedAt)} ms after its start`}):`,
      summarize(after),
      `server output:\n${summarizeOutput(server.output())}`,
    ].join('\n'),
  );
});

describe('Redis stopped, one process with REDIS_URL', () => {
  it('refuses guessing by the 9th try while Redis is up (the harness reaches the limit)', () => {
    expect(firstRefusal(triesWithRedis), statuses(triesWithRedis)).toBeLessThanOrEqual(REFUSED_BY_TRY);
    expect(before.map((outcome) => describeOutcome(outcome))).toEqual(['200', '200', '200']);
  });

  it('still refuses guessing by the 9th try while Redis is stopped (limits never fail open)', () => {
    expect(redisAnsweredWhileStopped, 'Redis still answered PING after it was stopped').toBe(false);
    expect(firstRefusal(triesWithoutRedis), `wrong-password answers: ${statuses(triesWithoutRedis)}`).toBeLessThanOrEqual(REFUSED_BY_TRY);
  });

  it('keeps reads and the right password of another account working while Redis is stopped', () => {
    expect(whileAway.map((outcome) => `${outcome.method} ${outcome.path} → ${describeOutcome(outcome)}`)).toEqual([
      'GET /api/courses → 200',
      'GET /api/auth/me → 200',
      'POST /api/auth/login → 200',
    ]);
  });

  it('carries on once Redis is back, without a restart: reads, sign-in and the limits', () => {
    expect(stillRunning, `the server exited (${server.howExited()}):\n${server.output().slice(-3000)}`).toBe(true);
    expect(usingRedisAt, `normal use after Redis came back (and no key written to Redis):\n${summarize(after)}`).toBeDefined();
    expect(after.filter((outcome) => !ok(outcome)).map((outcome) => describeOutcome(outcome))).toEqual([]);
    expect(firstRefusal(triesAfterRedis), statuses(triesAfterRedis)).toBeLessThanOrEqual(REFUSED_BY_TRY);
  });

  it('counts guesses made while Redis was away once it is back: 4 then more, still refused by the 9th try', () => {
    expect(firstRefusal(triesAcrossReturn), `wrong-password answers: ${statuses(triesAcrossReturn)}`).toBeLessThanOrEqual(REFUSED_BY_TRY);
  });

  it('gives every answer an X-Request-Id: a UUID, or the one the client sent', () => {
    const missing = withoutRequestId(outcomes);
    expect(missing.slice(0, 10), `${missing.length} answers without a UUID X-Request-Id`).toEqual([]);
    expect(echoed?.requestId).toBe('fault-lane-4f2a-echo');
    expect(UUID.test(outcomes[0]?.requestId ?? '')).toBe(true);
  });
});
