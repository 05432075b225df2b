import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAX_LIVE_SESSIONS } from '../../common/limits.ts';
import { members, sessions } from '../../db/schema.ts';
import { serviceTestApp } from '../../tests/helpers/service-tests.ts';
import { generateSessionToken, hashSessionToken } from './tokens.ts';

// Sessions of members and staff: tokens kept only as hashes, their lifetimes, revocations and what one
// process keeps in memory. Called in process; the HTTP side is tests/api/auth.test.ts and sessions.test.ts.

const t = serviceTestApp();

const service = () => t.app.sessions;
const DAY = 24 * 60 * 60 * 1000;
const member = (memberId: string) => ({ kind: 'member' as const, memberId });
/** Changes a stored session as time (or another server) would. */
const age = (sessionId: string, values: Partial<typeof sessions.$inferInsert>) =>
  t.db.update(sessions).set(values).where(eq(sessions.id, sessionId));

describe('sessions', () => {
  it('stores a new session by its token’s hash only, with where it came from, and resolves it to the member', async () => {
    const login = await t.loginAs('silver');
    const started = await service().create(member(login.memberId), { userAgent: 'x'.repeat(500), ipAddress: '10.40.0.1' });
    expect(Math.abs(started.expiresAt.getTime() - (Date.now() + t.config.sessionMaxMs))).toBeLessThan(10_000);
    const [row] = await t.db.select().from(sessions).where(eq(sessions.id, started.sessionId));
    expect(row).toMatchObject({ tokenHash: hashSessionToken(started.token), ipAddress: '10.40.0.1', revokedAt: null });
    expect(Object.values(row!)).not.toContain(started.token);
    expect(row!.userAgent).toHaveLength(400);
    expect(await service().resolve(started.token)).toEqual({
      sessionId: started.sessionId,
      kind: 'member',
      member: expect.objectContaining({ id: login.memberId, email: login.email, membershipTier: 'silver' }),
    });
  });

  it('resolves a staff session to its account and role, and no token it did not issue', async () => {
    const staff = await t.loginAsStaff({ role: 'editor' });
    expect(await service().resolve(staff.token)).toMatchObject({
      kind: 'staff',
      staff: { id: staff.id, role: 'editor', twoFactorEnabled: false },
    });
    for (const unknown of [undefined, '', generateSessionToken(), `${staff.token}x`, staff.token.slice(1)]) {
      expect(await service().resolve(unknown)).toBeNull();
    }
  });

  it('ends a session left unused for the idle period, or past its lifetime however much it is used', async () => {
    const login = await t.loginAs('free');
    const idle = await service().create(member(login.memberId));
    await age(idle.sessionId, { lastSeenAt: new Date(Date.now() - t.config.sessionIdleMs - 1000) });
    expect(await service().resolve(idle.token)).toBeNull();
    const old = await service().create(member(login.memberId));
    await age(old.sessionId, { expiresAt: new Date(Date.now() - 1000) });
    expect(await service().resolve(old.token)).toBeNull();

    // Using a session keeps it alive: each use (at most once a minute) moves its idle period on.
    const used = await service().create(member(login.memberId));
    await age(used.sessionId, { lastSeenAt: new Date(Date.now() - t.config.sessionIdleMs + 60_000) });
    expect(await service().resolve(used.token)).not.toBeNull();
    const [row] = await t.db.select().from(sessions).where(eq(sessions.id, used.sessionId));
    expect(Date.now() - row!.lastSeenAt.getTime()).toBeLessThan(10_000);
  });

  it(`keeps at most ${MAX_LIVE_SESSIONS} sessions per member: a new one ends the oldest`, async () => {
    const login = await t.loginAs('gold');
    const newer = [];
    for (let index = 0; index < MAX_LIVE_SESSIONS; index++) newer.push(await service().create(member(login.memberId)));
    expect(await service().resolve(login.token)).toBeNull();
    for (const session of newer) expect(await service().resolve(session.token)).not.toBeNull();
    expect((await service().devicesOf(login.memberId)).map((row) => row.id).sort()).toEqual(
      newer.map((session) => session.sessionId).sort(),
    );
  });

  it("revokes one session, a member's others or all of them, and never another account's", async () => {
    const owner = await t.loginAs('bronze');
    const stranger = await t.loginAs('bronze');
    const [kept, other, lost] = [
      await service().create(member(owner.memberId)),
      await service().create(member(owner.memberId)),
      await service().create(member(owner.memberId)),
    ];
    expect(await service().revokeMemberSession(owner.memberId, (await service().resolve(stranger.token))!.sessionId)).toBe(false);
    expect(await service().revokeMemberSession(owner.memberId, lost.sessionId)).toBe(true);
    expect(await service().revokeMemberSession(owner.memberId, lost.sessionId)).toBe(false);
    expect(await service().resolve(lost.token)).toBeNull();
    // The sign-in session of loginAs and `other` end; `kept` stays.
    expect(await service().revokeOtherMemberSessions(owner.memberId, kept.sessionId)).toBe(2);
    expect(await service().resolve(other.token)).toBeNull();
    expect(await service().resolve(kept.token)).not.toBeNull();
    expect(await service().revokeOtherMemberSessions(owner.memberId)).toBe(1);
    expect(await service().resolve(kept.token)).toBeNull();
    expect(await service().resolve(stranger.token)).not.toBeNull();

    const [staff, colleague] = [await t.loginAsStaff(), await t.loginAsStaff()];
    await service().revokeStaffSessions(staff.id);
    expect(await service().resolve(staff.token)).toBeNull();
    expect(await service().resolve(colleague.token)).not.toBeNull();
  });

  it('sees a change made by another server at a later lookup: a new tier, a revocation', async () => {
    const login = await t.loginAs('free');
    expect((await service().resolve(login.token))?.member?.membershipTier).toBe('free');
    await t.db.update(members).set({ membershipTier: 'gold' }).where(eq(members.id, login.memberId));
    await expect.poll(async () => (await service().resolve(login.token))?.member?.membershipTier, { timeout: 5000 }).toBe('gold');
    await t.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.memberId, login.memberId));
    await expect.poll(() => service().resolve(login.token), { timeout: 5000 }).toBeNull();
  });

  it('purges the sessions that can no longer be used, and keeps a revocation of today for the sign-in history', async () => {
    const login = await t.loginAs('free');
    const create = () => service().create(member(login.memberId));
    const [live, idle, expired, revokedToday, revokedLongAgo] = [
      await create(),
      await create(),
      await create(),
      await create(),
      await create(),
    ];
    await age(idle.sessionId, { lastSeenAt: new Date(Date.now() - t.config.sessionIdleMs - 1000) });
    await age(expired.sessionId, { expiresAt: new Date(Date.now() - 1000) });
    await service().revoke(revokedToday.sessionId);
    await age(revokedLongAgo.sessionId, { revokedAt: new Date(Date.now() - 2 * DAY) });
    expect(await service().purgeExpired()).toBeGreaterThanOrEqual(3);
    const ids = [live, idle, expired, revokedToday, revokedLongAgo].map((session) => session.sessionId);
    const left = await t.db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, ids));
    expect(left.map((row) => row.id).sort()).toEqual([live.sessionId, revokedToday.sessionId].sort());
    expect(await service().resolve(live.token)).not.toBeNull();
  });
});
