import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_REQUESTED } from '../../common/account.contract.ts';
import { EMAIL_TAKEN } from '../../common/auth.contract.ts';
import { auditLog, members, outboxMessages, subscriptions } from '../../db/schema.ts';
import { removeLapsedMembers } from '../../server/accounts/data-retention.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/test-app.ts';

// Accounts that cannot be taken over: what the security review found, closed from the outside.

const PUBLIC_URL = 'https://learn.realtypocket.test';
let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ seed: false, env: { SMTP_URL: smtp.url, PUBLIC_URL }, mailTiming: { pollMs: 200, retryBaseMs: 200 } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let nextAddress = 0;
/** Each test speaks from addresses of its own, so one test's limits never meet another's. */
const clientAddress = () => `10.${(nextAddress >> 8) & 255}.${nextAddress++ & 255}.7`;
const post = (url: string, payload: object, options: { headers?: Record<string, string>; from?: string } = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: options.headers, remoteAddress: options.from ?? '127.0.0.1' });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('no working link at rest', () => {
  it('keeps no token that works in the outbox: each link is minted as its message is sent', async () => {
    const member = await t.loginAs('silver', { name: 'Rest Easy' });
    const owner = await t.loginAsStaff();
    const invited = uniqueEmail('invited-editor');
    const newAddress = uniqueEmail('new-address');
    const signedUp = uniqueEmail('signed-up');
    await post('/api/auth/password-reset', { email: member.email });
    await post('/api/admin/staff', { email: invited, role: 'editor' }, { headers: { authorization: `Bearer ${owner.token}` } });
    await post('/api/account/email', { email: newAddress, password: member.password }, { headers: member.headers });
    await post('/api/auth/register', { name: 'New Member', email: signedUp, password: 'secret12' }, { from: clientAddress() });
    const [reset] = await smtp.waitFor(member.email);
    await smtp.waitFor(invited);
    await smtp.waitFor(newAddress);
    await smtp.waitFor(signedUp);

    // Whoever reads the outbox (the database, a backup, a replica) finds no working link.
    const rows = await t.db.select().from(outboxMessages);
    const stored = rows.flatMap((row) => [row.html, row.text, row.unsubscribeUrl ?? '']).join('\n');
    const tokensAtRest = [...stored.matchAll(/token=([A-Za-z0-9_-]+)/g)].map((match) => match[1]!);
    expect(tokensAtRest.length).toBeGreaterThan(0);
    for (const token of new Set(tokensAtRest)) {
      expect(
        (await post('/api/auth/password-reset/confirm', { token, password: 'taken over' }, { from: clientAddress() })).statusCode,
      ).toBe(400);
      expect(
        (await post('/api/admin/password-reset/confirm', { token, password: 'taken over' }, { from: clientAddress() })).statusCode,
      ).toBe(400);
      expect((await post('/api/auth/verify-email', { token }, { from: clientAddress() })).statusCode).toBe(400);
    }
    // The link in the message as sent works, once.
    const sent = tokenOf(linkIn(reset!, `${PUBLIC_URL}/reset-password?token=`));
    expect(stored).not.toContain(sent);
    expect((await post('/api/auth/password-reset/confirm', { token: sent, password: 'mine again' })).json()).toEqual({ success: true });
  });

  it('sends a reset asked for an unknown address to nobody, after the same answer and the same work as for a member', async () => {
    const member = await t.loginAs('free');
    const stranger = uniqueEmail('stranger');
    const known = await post('/api/auth/password-reset', { email: member.email }, { from: clientAddress() });
    const unknown = await post('/api/auth/password-reset', { email: stranger }, { from: clientAddress() });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(known.json()).toEqual({ success: true, message: RESET_REQUESTED });
    // Both requests queued one row alike; the mail worker decides, later, that one of them goes nowhere.
    const queued = async (address: string) => t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, address));
    expect((await queued(member.email)).map((row) => row.kind)).toEqual(['password-reset']);
    expect((await queued(stranger)).map((row) => row.kind)).toEqual(['password-reset']);
    await smtp.waitFor(member.email);
    await expect.poll(async () => (await queued(stranger))[0]?.status, { timeout: 10_000 }).toBe('failed');
    expect((await queued(stranger))[0]!.lastError).toBe('No account has this address: nothing was sent.');
    expect(smtp.to(stranger)).toHaveLength(0);
  });
});

describe('every check of a secret is limited', () => {
  it('answers 429 to a client that keeps trying wrong reset links, for members and staff', async () => {
    for (const url of ['/api/auth/password-reset/confirm', '/api/admin/password-reset/confirm']) {
      const from = clientAddress();
      const answers: number[] = [];
      for (let guess = 0; guess < 12; guess++) {
        answers.push((await post(url, { token: `guess-${guess}-${'x'.repeat(40)}`, password: 'new password 1' }, { from })).statusCode);
      }
      expect(answers.slice(0, 10).every((status) => status === 400)).toBe(true);
      expect(answers.slice(10)).toEqual([429, 429]);
    }
  });

  it('answers 429 to one link guessed at from many places', async () => {
    const token = `one-link-${'y'.repeat(40)}`;
    const answers: number[] = [];
    for (let place = 0; place < 7; place++) {
      answers.push(
        (await post('/api/auth/password-reset/confirm', { token, password: 'new password 1' }, { from: clientAddress() })).statusCode,
      );
    }
    expect(answers).toEqual([400, 400, 400, 400, 400, 429, 429]);
  });

  it('answers 429 to wrong current passwords, whatever they are for, and then to the right one too, for a while', async () => {
    const member = await t.loginAs('bronze');
    const from = clientAddress();
    const tries = [
      () =>
        post('/api/account/password', { current_password: 'wrong one', new_password: 'new password 1' }, { headers: member.headers, from }),
      () => post('/api/account/email', { email: uniqueEmail('elsewhere'), password: 'wrong one' }, { headers: member.headers, from }),
      () => post('/api/account/delete', { password: 'wrong one' }, { headers: member.headers, from }),
    ];
    const answers: number[] = [];
    for (let attempt = 0; attempt < 9; attempt++) answers.push((await tries[attempt % 3]!()).statusCode);
    expect(answers.slice(0, 8).every((status) => status === 400)).toBe(true);
    expect(answers[8]).toBe(429);
    const right = await post(
      '/api/account/password',
      { current_password: member.password, new_password: 'new password 1' },
      { headers: member.headers, from },
    );
    expect(right.statusCode).toBe(429);
  });
});

describe('nothing tells who is a member', () => {
  it('tells a client that an address is taken a few times, then answers 429, at sign-up and at an email change', async () => {
    const from = clientAddress();
    const taken = await Promise.all(Array.from({ length: 3 }, () => t.loginAs('free')));
    const signUp = (email: string) => post('/api/auth/register', { name: 'Probe', email, password: 'secret12' }, { from });
    const answers = [];
    for (const member of taken) answers.push((await signUp(member.email)).statusCode);
    const changer = await t.loginAs('free');
    for (const member of taken) {
      answers.push(
        (await post('/api/account/email', { email: member.email, password: changer.password }, { headers: changer.headers, from }))
          .statusCode,
      );
    }
    expect(answers).toEqual([409, 409, 409, 409, 409, 429]);
    expect((await signUp(taken[0]!.email)).json().detail).not.toBe(EMAIL_TAKEN);
  });
});

describe('sessions follow the account', () => {
  it('signs the other devices out when the email changes, keeps the one that confirms, and tells the old address', async () => {
    const member = await t.loginAs('gold', { name: 'Moving Mona' });
    const phone = await t.app.sessions.create(
      { kind: 'member', memberId: member.memberId },
      { userAgent: 'Mozilla/5.0 (iPhone) Safari/604.1' },
    );
    const newAddress = uniqueEmail('moved');
    await post('/api/account/email', { email: newAddress, password: member.password }, { headers: member.headers });
    const [confirm] = await smtp.waitFor(newAddress);
    const token = tokenOf(linkIn(confirm!, `${PUBLIC_URL}/confirm-email?token=`));
    expect((await post('/api/account/email/confirm', { token }, { headers: member.headers })).json()).toEqual({ success: true });
    const me = (headers: Record<string, string>) => t.app.inject({ url: '/api/auth/me', headers });
    expect((await me(member.headers)).json().email).toBe(newAddress);
    expect((await me({ authorization: `Bearer ${phone.token}` })).statusCode).toBe(401);
    const told = await smtp.waitFor(member.email, 2);
    expect(told.map((mail) => mail.subject)).toContain('Your email address was changed');
  });

  it('lists the devices with where and when, and signs out one of them, but never another member’s', async () => {
    const member = await t.loginAs('bronze');
    const laptop = await t.app.sessions.create(
      { kind: 'member', memberId: member.memberId },
      { userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0 Safari/537.36', ipAddress: '203.0.113.5' },
    );
    const devices = (await t.app.inject({ url: '/api/account/sessions', headers: member.headers })).json() as {
      id: string;
      device: string;
      address: string;
      current: boolean;
    }[];
    expect(devices).toHaveLength(2);
    const other = devices.find((device) => !device.current)!;
    expect(other).toMatchObject({ device: 'Chrome on Windows', address: '203.0.113.5' });
    const stranger = await t.loginAs('free');
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/account/sessions/${other.id}`, headers: stranger.headers });
    expect(refused.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${laptop.token}` } })).statusCode).toBe(200);
    const ended = await t.app.inject({ method: 'DELETE', url: `/api/account/sessions/${other.id}`, headers: member.headers });
    expect(ended.json()).toEqual({ success: true });
    expect((await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${laptop.token}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/me', headers: member.headers })).statusCode).toBe(200);
  });
});

describe("members' data is theirs", () => {
  const request = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, payload });

  it('gives the member every piece of their own data in one file, and nothing of anyone else', async () => {
    const member = await t.loginAs('gold', { name: 'Export Erin' });
    const other = await t.loginAs('silver', { name: 'Other Oscar' });
    const post = (await request('POST', '/api/community/posts', member.headers, { title: 'My own question', body: 'Only mine.' })).json();
    await request('POST', `/api/community/posts/${post.id}/replies`, other.headers, { body: 'Oscar answers, privately his.' });
    const theirs = (await request('POST', '/api/community/posts', other.headers, { title: 'Oscar asks', body: 'His text.' })).json();
    await request('POST', `/api/community/posts/${theirs.id}/replies`, member.headers, { body: 'Erin answers Oscar.' });
    await request('PUT', `/api/community/posts/${theirs.id}/like`, member.headers);
    await request('PUT', '/api/account/time-zone', member.headers, { time_zone: 'America/Denver' });
    const goal = (
      await request('POST', '/api/goals', member.headers, {
        kind: 'count',
        title: 'Calls to past clients',
        target: 20,
        unit: 'calls',
        period: 'week',
      })
    ).json();
    await request('POST', `/api/goals/${goal.id}/progress`, member.headers, { amount: 3 });
    const write = (who: typeof member, subject: string, message: string) =>
      request('POST', '/api/contact', who.headers, { name: 'Someone', email: who.email, subject, message });
    expect((await write(member, 'Billing question', 'Erin asks about her invoice.')).statusCode).toBeLessThan(300);
    await write(other, 'Oscar writes', 'Oscar asks privately.');

    const exported = await t.app.inject({ url: '/api/account/export', headers: member.headers });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="realtypocket-my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = exported.json();
    expect(data.profile).toMatchObject({ name: 'Export Erin', email: member.email, membership_tier: 'gold', time_zone: 'America/Denver' });
    expect(data).toMatchObject({ live_sessions: [], one_on_ones: [] });
    expect(data.consents).toMatchObject({ optional_email: true });
    expect(data.discussions).toEqual([expect.objectContaining({ id: post.id, title: 'My own question', text: 'Only mine.' })]);
    expect(data.replies).toEqual([expect.objectContaining({ discussion_id: theirs.id, text: 'Erin answers Oscar.' })]);
    expect(data.likes).toEqual([expect.objectContaining({ discussion_id: theirs.id })]);
    expect(data.sign_ins.length).toBeGreaterThan(0);
    expect(data.goals).toEqual([expect.objectContaining({ id: goal.id, title: 'Calls to past clients', target: 20, unit: 'calls' })]);
    expect(data.goal_progress).toEqual([expect.objectContaining({ goal_id: goal.id, amount: 3 })]);
    expect(data.messages_to_us).toEqual([
      expect.objectContaining({ subject: 'Billing question', message: 'Erin asks about her invoice.', replied: false }),
    ]);
    // Nothing of another member, and no secret.
    const text = exported.body;
    for (const foreign of ['Oscar answers', 'His text.', 'Other Oscar', 'Oscar asks privately', other.email, '$argon2', 'password'])
      expect(text).not.toContain(foreign);
    expect((await t.app.inject({ url: '/api/account/export' })).statusCode).toBe(401);
  });

  it('keeps what happened in the activity log when a member deletes their account, but not who they were', async () => {
    const member = await t.loginAs('bronze', { name: 'Gone Gwen' });
    const staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    const post = (await request('POST', '/api/community/posts', member.headers, { title: 'Gwen discusses', body: 'Gwen text.' })).json();
    const reply = (await request('POST', `/api/community/posts/${post.id}/replies`, member.headers, { body: 'Gwen replies here.' })).json();
    await request('POST', `/api/admin/community/replies/${reply.id}`, staff, { action: 'hide' });
    await request('POST', `/api/admin/community/posts/${post.id}`, staff, { action: 'lock' });
    await request('POST', `/api/admin/members/${member.memberId}/community-suspension`, staff, { suspended: true });
    const before = await t.db.select().from(auditLog);

    expect((await request('POST', '/api/account/delete', member.headers, { password: member.password })).statusCode).toBe(200);
    const after = await t.db.select().from(auditLog);
    expect(after).toHaveLength(before.length);
    const kept = JSON.stringify(after);
    for (const trace of [member.email, 'Gone Gwen', 'Gwen replies here', 'Gwen discusses']) expect(kept).not.toContain(trace);
    expect(after.filter((entry) => entry.target === 'deleted member').map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['community.reply.hide', 'community.post.lock', 'community.suspend']),
    );
  });

  it('removes a cancelled member’s data 90 days after the plan ended, once, and keeps everyone else', async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const withPlan = async (endedDaysAgo: number | null, complimentary = false) => {
      const member = await t.loginAs(complimentary ? 'silver' : 'free');
      await t.db.insert(subscriptions).values({
        id: `sub_${member.memberId.slice(0, 8)}`,
        memberId: member.memberId,
        customerId: `cus_${member.memberId.slice(0, 8)}`,
        status: endedDaysAgo === null ? 'active' : 'canceled',
        tier: 'silver',
        period: 'monthly',
        priceId: 'price_silver_monthly',
        amountCents: 7900,
        currency: 'usd',
        currentPeriodEnd: endedDaysAgo === null ? daysAgo(-20) : daysAgo(endedDaysAgo),
        startedAt: daysAgo(400),
        endedAt: endedDaysAgo === null ? null : daysAgo(endedDaysAgo),
      });
      return member;
    };
    const lapsed = await withPlan(91);
    const recent = await withPlan(89);
    const paying = await withPlan(null);
    const given = await withPlan(200, true);
    const neverPaid = await t.loginAs('free');

    // Two processes at once: the removal happens, once, and neither fails.
    const data = createDataAccess(t.db);
    const removed = await Promise.all([removeLapsedMembers(data), removeLapsedMembers(data)]);
    expect(Math.max(...removed)).toBeGreaterThanOrEqual(1);
    const remaining = new Set((await t.db.select({ id: members.id }).from(members)).map((row) => row.id));
    expect(remaining.has(lapsed.memberId)).toBe(false);
    for (const kept of [recent, paying, given, neverPaid]) expect(remaining.has(kept.memberId)).toBe(true);
    expect(await removeLapsedMembers(data)).toBe(0);
  });
});

describe('what a member may read is decided when it is read', () => {
  it('shows a member moved from Gold to Silver no Gold Lounge text anywhere: feed, discussion, search, replies, preview or mail', async () => {
    const author = await t.loginAs('gold', { name: 'Former Gold' });
    const friend = await t.loginAs('gold');
    const owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    const headers = author.headers;
    const lounge = (
      await post('/api/community/posts', { title: 'Lounge secret strategy', body: 'Only for Gold eyes.', space: 'gold' }, { headers })
    ).json();
    await post(`/api/community/posts/${lounge.id}/replies`, { body: 'A Gold answer, private.' }, { headers: friend.headers });
    expect((await t.app.inject({ url: '/api/me/community/replies', headers })).json()).toHaveLength(1);

    await post(`/api/admin/members/${author.memberId}/tier`, { membership_tier: 'silver' }, { headers: owner });
    await post(`/api/community/posts/${lounge.id}/replies`, { body: 'Another Gold answer, after the move.' }, { headers: friend.headers });

    const get = (url: string) => t.app.inject({ url, headers });
    expect((await get('/api/community/feed?space=gold')).statusCode).toBe(403);
    expect((await get(`/api/community/posts/${lounge.id}`)).statusCode).toBe(403);
    const seen = [
      (await get('/api/community/feed')).body,
      (await get('/api/community/feed?q=lounge%20secret%20strategy')).body,
      (await get('/api/community/posts')).body,
      (await get('/api/me/community/replies')).body,
    ].join('\n');
    for (const text of ['Lounge secret strategy', 'Only for Gold eyes', 'A Gold answer', 'Another Gold answer'])
      expect(seen).not.toContain(text);
    // Nor by mail: the reply after the move was not mailed to them.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const mailed = smtp.to(author.email).map((mail) => `${mail.subject} ${mail.text}`);
    expect(mailed.join('\n')).not.toContain('Another Gold answer');
  });
});
