import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_REQUESTED } from '../../common/account.contract.ts';
import { EMAIL_TAKEN } from '../../common/auth.contract.ts';
import { outboxMessages } from '../../db/schema.ts';
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
