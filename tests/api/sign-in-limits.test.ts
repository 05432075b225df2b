import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LIVE_SESSIONS, MEMBER_AUTH_LIMITS } from '../../common/limits.ts';
import { members, sessions } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(() => t.close());

const login = (email: string, password: string, address: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: address });

const waitMinutes = (detail: string) => {
  const match = /Please wait (\d+) (minutes|seconds)/.exec(detail);
  if (!match) throw new Error(`No wait in "${detail}"`);
  return match[2] === 'minutes' ? Number(match[1]) : Number(match[1]) / 60;
};

describe('an attacker guessing a member password', () => {
  it('is refused from their address while the owner still signs in from elsewhere', async () => {
    const owner = await t.loginAs('gold');
    const codes: number[] = [];
    for (let guess = 0; guess < 10; guess++) codes.push((await login(owner.email, `guess-${guess}`, '198.51.100.66')).statusCode);
    const max = MEMBER_AUTH_LIMITS.perAccountAndAddress.max;
    expect(codes.slice(0, max)).toEqual(Array(max).fill(401));
    expect(codes.slice(max)).toEqual([429, 429]);
    // The right password from the attacker's address is refused too: the address is the attacker's.
    expect((await login(owner.email, owner.password, '198.51.100.66')).statusCode).toBe(429);
    // The owner, at home, gets in.
    const fromHome = await login(owner.email, owner.password, '203.0.113.10');
    expect(fromHome.statusCode).toBe(200);
    expect(typeof fromHome.json().token).toBe('string');
  });

  it('makes the attacker wait longer with every try', async () => {
    const owner = await t.loginAs('free');
    const waits: number[] = [];
    for (let guess = 0; guess < 12; guess++) {
      const response = await login(owner.email, `guess-${guess}`, '198.51.100.77');
      if (response.statusCode === 429) waits.push(waitMinutes(response.json().detail));
    }
    expect(waits.length).toBe(4);
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThan(waits[i - 1]!);
  });
});

describe('sign-ins per address', () => {
  it('limits every attempt from one address, right passwords included', async () => {
    const member = await t.loginAs('silver');
    const codes: number[] = [];
    for (let attempt = 0; attempt <= MEMBER_AUTH_LIMITS.perAddress.max; attempt++) {
      codes.push((await login(member.email, member.password, '192.0.2.200')).statusCode);
    }
    expect(codes.slice(0, MEMBER_AUTH_LIMITS.perAddress.max).every((code) => code === 200)).toBe(true);
    expect(codes.at(-1)).toBe(429);
  });
});

describe('live sessions per member', () => {
  it(`keeps at most ${MAX_LIVE_SESSIONS}: a new sign-in ends the oldest`, async () => {
    const member = await t.loginAs('bronze');
    const tokens: string[] = [];
    for (let device = 0; device < MAX_LIVE_SESSIONS + 2; device++) {
      const response = await login(member.email, member.password, `10.9.0.${device + 1}`);
      expect(response.statusCode).toBe(200);
      tokens.push(response.json().token);
    }
    const live = await t.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.memberId, member.memberId), isNull(sessions.revokedAt)));
    expect(live).toHaveLength(MAX_LIVE_SESSIONS);
    const me = (token: string) => t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me(tokens[0]!)).statusCode).toBe(401);
    expect((await me(tokens.at(-1)!)).statusCode).toBe(200);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('jobs shared by several processes', () => {
  it('run in one process at a time: a second start while the first runs is skipped', async () => {
    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    const first = t.database.runAlone('test-job', () => running);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await t.database.runAlone('test-job', async () => {})).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(await t.database.runAlone('test-job', async () => {})).toBe(true);
  });
});

describe('expired sessions', () => {
  it('are purged soon after the server starts', async () => {
    const other = await createTestApp({ seed: false });
    try {
      const [member] = await other.db
        .insert(members)
        .values({ name: 'Old Sessions', email: 'old-sessions@example.com', passwordHash: 'x' })
        .returning({ id: members.id });
      await other.db.insert(sessions).values([
        { tokenHash: 'expired-1', kind: 'member', memberId: member!.id, expiresAt: new Date(Date.now() - 1000) },
        { tokenHash: 'expired-2', kind: 'member', memberId: member!.id, expiresAt: new Date(Date.now() - 60_000) },
      ]);
      const live = await other.loginAs('free');
      await expect
        .poll(async () => (await other.db.select().from(sessions)).map((row) => row.memberId), { timeout: 5000 })
        .toEqual([live.memberId]);
    } finally {
      await other.close();
    }
  });
});
