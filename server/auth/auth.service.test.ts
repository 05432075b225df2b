import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EMAIL_TAKEN, INVALID_CREDENTIALS } from '../../common/auth.contract.ts';
import { MEMBER_AUTH_LIMITS, TAKEN_ADDRESS_LIMIT } from '../../common/limits.ts';
import type { Viewer } from '../../common/viewer.ts';
import { members, outboxMessages } from '../../db/schema.ts';
import { refusal, serviceTestApp, SIGN_IN_FIRST, TOO_MANY_ATTEMPTS } from '../../tests/helpers/service-tests.ts';
import { uniqueEmail } from '../../tests/helpers/test-app.ts';

// Signing up, in and out, and a member's devices, called in process (the HTTP contract is tests/api/auth.test.ts).

const t = serviceTestApp();

const auth = () => t.app.services.auth;
const PASSWORD = 'a long enough password';
const INVALID = { status: 401, message: INVALID_CREDENTIALS };
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile Safari/604.1';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0';

/** A visitor from an address of its own, so the attempts of one test never count against another. */
let lastAddress = 0;
function visitor(userAgent = 'service test'): Viewer {
  return { member: null, staff: null, client: { address: `10.20.0.${++lastAddress}`, userAgent } };
}

describe('signing up', () => {
  it('makes a free member with an unconfirmed address, signed in at once, and queues the welcome that confirms it', async () => {
    const email = uniqueEmail('signup');
    const session = await auth().register(visitor(), { name: 'Riley Realtor', email, password: PASSWORD });
    const me = auth().me(await t.viewerOf(session.token));
    expect(me).toMatchObject({ name: 'Riley Realtor', email, membership_tier: 'free', email_verified: false });
    const [stored] = await t.db.select().from(members).where(eq(members.id, me.id));
    expect(stored!.passwordHash).toMatch(/^\$argon2id\$/);
    const mail = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, email));
    expect(mail.map((row) => [row.kind, row.linkGrant])).toEqual([
      ['welcome', expect.objectContaining({ kind: 'account-token', purpose: 'email_verification', memberId: me.id })],
    ]);
  });

  it('refuses an address taken in any letter case, and says so only a few times to one client', async () => {
    const email = uniqueEmail('taken');
    await auth().register(visitor(), { name: 'First', email, password: PASSWORD });
    const prober = visitor();
    const again = () => auth().register(prober, { name: 'Second', email: email.toUpperCase(), password: PASSWORD });
    for (let attempt = 0; attempt < TAKEN_ADDRESS_LIMIT.max; attempt++) {
      expect(await refusal(again())).toEqual({ status: 409, message: EMAIL_TAKEN });
    }
    expect(await refusal(again())).toEqual(TOO_MANY_ATTEMPTS);
    const stored = await t.db
      .select()
      .from(members)
      .where(eq(sql`lower(${members.email})`, email));
    expect(stored.map((row) => row.name)).toEqual(['First']);
  });
});

describe('signing in', () => {
  it('takes the email in any letter case, starts a fresh session each time, and answers every failure alike', async () => {
    const member = await t.loginAs('silver');
    const first = await auth().signIn(visitor(), { email: member.email.toUpperCase(), password: member.password });
    const second = await auth().signIn(visitor(), { email: member.email, password: member.password });
    expect(first.token).not.toBe(second.token);
    expect(auth().me(await t.viewerOf(first.token))).toMatchObject({ id: member.memberId, membership_tier: 'silver' });
    expect(await refusal(auth().signIn(visitor(), { email: member.email, password: 'not the password' }))).toEqual(INVALID);
    expect(await refusal(auth().signIn(visitor(), { email: uniqueEmail('nobody'), password: member.password }))).toEqual(INVALID);
  });

  it('keeps member and staff accounts apart: each signs in on its own side only', async () => {
    const member = await t.loginAs('gold');
    const staff = await t.loginAsStaff({ role: 'editor' });
    expect(await refusal(auth().signIn(visitor(), { email: staff.email, password: staff.password }))).toEqual(INVALID);
    expect(await refusal(auth().staffSignIn(visitor(), { email: member.email, password: member.password }))).toEqual(INVALID);
    const signedIn = await auth().staffSignIn(visitor(), { email: staff.email.toUpperCase(), password: staff.password });
    expect(signedIn.email).toBe(staff.email);
    expect((await t.viewerOf(signedIn.token)).staff).toMatchObject({ id: staff.id, role: 'editor' });
  });

  it('stops guesses at one account from one address, the right password too, while the owner signs in elsewhere', async () => {
    const member = await t.loginAs('free');
    const attacker = visitor();
    for (let attempt = 0; attempt < MEMBER_AUTH_LIMITS.perAccountAndAddress.max; attempt++) {
      expect(await refusal(auth().signIn(attacker, { email: member.email, password: `guess ${attempt}` }))).toEqual(INVALID);
    }
    expect(await refusal(auth().signIn(attacker, { email: member.email, password: member.password }))).toEqual(TOO_MANY_ATTEMPTS);
    const elsewhere = await auth().signIn(visitor(), { email: member.email, password: member.password });
    expect(auth().me(await t.viewerOf(elsewhere.token)).id).toBe(member.memberId);
  });
});

describe('sessions and devices', () => {
  it("lists the member's devices, the current one marked, and signs out only their own", async () => {
    const member = await t.loginAs('bronze');
    const credentials = { email: member.email, password: member.password };
    const phone = visitor(IPHONE);
    const onPhone = await auth().signIn(phone, credentials);
    const onLaptop = await auth().signIn(visitor(WINDOWS), credentials);
    const viewer = await t.viewerOf(onPhone.token);
    const devices = await auth().devices(viewer);
    expect(devices).toHaveLength(3);
    expect(devices.filter((device) => device.current)).toEqual([
      expect.objectContaining({ id: viewer.member!.sessionId, device: 'Safari on iOS', address: phone.client.address }),
    ]);
    const laptop = devices.find((device) => device.device === 'Edge on Windows')!;

    const stranger = await t.asMember('gold');
    const notTheirs = { status: 404, message: 'That device is not signed in.' };
    expect(await refusal(auth().signOutDevice(viewer, stranger.member.sessionId))).toEqual(notTheirs);
    expect(await auth().devices(stranger)).toHaveLength(1);
    await auth().signOutDevice(viewer, laptop.id);
    expect(await t.app.sessions.resolve(onLaptop.token)).toBeNull();
    expect(await refusal(auth().signOutDevice(viewer, laptop.id))).toEqual(notTheirs);
    expect((await auth().devices(viewer)).map((device) => device.id)).not.toContain(laptop.id);
  });

  it('ends the other sessions on request, and the current one at sign-out', async () => {
    const member = await t.loginAs('gold');
    const here = await auth().signIn(visitor(), { email: member.email, password: member.password });
    const there = await auth().signIn(visitor(), { email: member.email, password: member.password });
    const viewer = await t.viewerOf(here.token);
    expect(await auth().revokeOtherSessions(viewer)).toBe(2);
    expect(await t.app.sessions.resolve(member.token)).toBeNull();
    expect(await t.app.sessions.resolve(there.token)).toBeNull();
    expect(await t.app.sessions.resolve(here.token)).not.toBeNull();
    await auth().signOut(viewer);
    expect(await t.app.sessions.resolve(here.token)).toBeNull();

    const staff = await t.loginAsStaff();
    await auth().staffSignOut(await t.viewerOf(staff.token));
    expect(await t.app.sessions.resolve(staff.token)).toBeNull();
  });

  it('answers a visitor and a staff session as nobody signed in as a member', async () => {
    for (const nobody of [t.asVisitor(), await t.asStaff('owner')]) {
      expect(await refusal(() => auth().me(nobody))).toEqual(SIGN_IN_FIRST);
      expect(await refusal(auth().devices(nobody))).toEqual(SIGN_IN_FIRST);
      expect(await refusal(auth().revokeOtherSessions(nobody))).toEqual(SIGN_IN_FIRST);
      expect(await refusal(auth().signOutDevice(nobody, '00000000-0000-4000-8000-000000000000'))).toEqual(SIGN_IN_FIRST);
    }
    // Signing out without a session has nothing to end, and is no error.
    await expect(auth().signOut(t.asVisitor())).resolves.toBeUndefined();
  });
});
