import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_REQUESTED } from '../../common/account.contract.ts';
import { accountTokens, members, outboxMessages, sessions } from '../../db/schema.ts';
import { sendLifecycleMail } from '../../server/lifecycle/lifecycle-mail.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/test-app.ts';

const PUBLIC_URL = 'https://learn.realtypocket.test';
let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      PUBLIC_URL,
      MAIL_FROM: 'RealtyPocket <hello@realtypocket.test>',
      STAFF_NOTIFY_EMAIL: 'team@realtypocket.test',
    },
    mailTiming: { pollMs: 200, retryBaseMs: 200 },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (url: string, payload?: object, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('password reset', () => {
  it('answers a known and an unknown email alike, and mails only the account that exists', async () => {
    const member = await t.loginAs('bronze', { name: 'Riley Reset' });
    const known = await post('/api/auth/password-reset', { email: member.email.toUpperCase() });
    const unknown = await post('/api/auth/password-reset', { email: uniqueEmail('nobody') });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ success: true, message: RESET_REQUESTED });
    expect(unknown.json()).toEqual(known.json());
    const [mail] = await smtp.waitFor(member.email);
    expect(mail!.subject).toBe('Reset your password');
    expect(mail!.from?.value[0]).toMatchObject({ name: 'RealtyPocket', address: 'hello@realtypocket.test' });
    expect(linkIn(mail!, `${PUBLIC_URL}/reset-password?token=`)).toMatch(/token=[A-Za-z0-9_-]{43}$/);
    // The token is stored only as its hash, and works for an hour.
    const [stored] = await t.db.select().from(accountTokens).where(eq(accountTokens.memberId, member.memberId));
    expect(stored!.tokenHash).not.toBe(tokenOf(linkIn(mail!, `${PUBLIC_URL}/reset-password?token=`)));
    expect(stored!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it('sets the new password once, ends every session and lets a locked-out member back in', async () => {
    const member = await t.loginAs('silver', { name: 'Locked Out' });
    // Eight wrong guesses from the member's own address lock them out there.
    for (let guess = 0; guess < 8; guess++)
      await post('/api/auth/login', { email: member.email, password: `wrong-${guess}` }, {}, '10.20.30.40');
    expect((await post('/api/auth/login', { email: member.email, password: member.password }, {}, '10.20.30.40')).statusCode).toBe(429);

    await post('/api/auth/password-reset', { email: member.email });
    const [mail] = await smtp.waitFor(member.email);
    const token = tokenOf(linkIn(mail!, `${PUBLIC_URL}/reset-password?token=`));
    const reset = await post('/api/auth/password-reset/confirm', { token, password: 'brand new secret' });
    expect(reset.json()).toEqual({ success: true });
    expect((await t.app.inject({ url: '/api/auth/me', headers: member.headers })).statusCode).toBe(401);
    const again = await post('/api/auth/password-reset/confirm', { token, password: 'another secret' });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toBe('This link has expired or was already used. Ask for a new one.');

    const signIn = await post('/api/auth/login', { email: member.email, password: 'brand new secret' }, {}, '10.20.30.40');
    expect(signIn.statusCode).toBe(200);
    const changed = await smtp.waitFor(member.email, 2);
    expect(changed.map((message) => message.subject)).toContain('Your password was changed');
  });

  it('refuses an expired, an unknown and a malformed token', async () => {
    const member = await t.loginAs('free');
    await post('/api/auth/password-reset', { email: member.email });
    const [mail] = await smtp.waitFor(member.email);
    const token = tokenOf(linkIn(mail!, `${PUBLIC_URL}/reset-password?token=`));
    await t.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.memberId, member.memberId));
    expect((await post('/api/auth/password-reset/confirm', { token, password: 'new secret' })).statusCode).toBe(400);
    expect((await post('/api/auth/password-reset/confirm', { token: 'x'.repeat(43), password: 'new secret' })).statusCode).toBe(400);
    expect((await post('/api/auth/password-reset/confirm', { token: 'bad token!', password: 'new secret' })).statusCode).toBe(400);
  });

  it('is limited per email address', async () => {
    const email = uniqueEmail('flood');
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await post('/api/auth/password-reset', { email }, {}, `10.1.2.${i}`)).statusCode);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
  });
});

describe('staff password reset', () => {
  it('mails a link to the admin reset page that sets a new staff password', async () => {
    const staff = await t.loginAsStaff({ email: uniqueEmail('owner') });
    await post('/api/admin/password-reset', { email: staff.email });
    const [mail] = await smtp.waitFor(staff.email);
    const token = tokenOf(linkIn(mail!, `${PUBLIC_URL}/admin/reset-password?token=`));
    expect((await post('/api/admin/password-reset/confirm', { token, password: 'new staff secret' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/admin/session', headers: { authorization: `Bearer ${staff.token}` } })).statusCode).toBe(401);
    expect((await post('/api/admin/login', { email: staff.email, password: 'new staff secret' })).statusCode).toBe(200);
  });
});

describe('sign-up and email verification', () => {
  it('welcomes a new member with a link that confirms the address', async () => {
    const email = uniqueEmail('welcome');
    const created = await post('/api/auth/register', { name: 'Wendy Welcome', email, password: 'secret12' });
    const headers = { authorization: `Bearer ${created.json().token}` };
    expect((await t.app.inject({ url: '/api/auth/me', headers })).json().email_verified).toBe(false);
    const [mail] = await smtp.waitFor(email);
    expect(mail!.subject).toBe('Welcome to RealtyPocket');
    expect(mail!.html).toContain('Wendy Welcome');
    const token = tokenOf(linkIn(mail!, `${PUBLIC_URL}/verify-email?token=`));
    expect((await post('/api/auth/verify-email', { token })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/me', headers })).json().email_verified).toBe(true);
    expect((await post('/api/auth/verify-email', { token })).statusCode).toBe(400);
  });

  it('sends a new link on request, and the old one stops working', async () => {
    const member = await t.loginAs('free');
    const first = await post('/api/auth/verify-email/resend', undefined, member.headers);
    expect(first.json().message).toBe(`We sent a new confirmation link to ${member.email}.`);
    const [one] = await smtp.waitFor(member.email);
    await post('/api/auth/verify-email/resend', undefined, member.headers);
    const [, two] = await smtp.waitFor(member.email, 2);
    expect((await post('/api/auth/verify-email', { token: tokenOf(linkIn(one!, `${PUBLIC_URL}/verify-email?token=`)) })).statusCode).toBe(
      400,
    );
    expect((await post('/api/auth/verify-email', { token: tokenOf(linkIn(two!, `${PUBLIC_URL}/verify-email?token=`)) })).statusCode).toBe(
      200,
    );
  });
});

describe('account settings', () => {
  it('changes the name', async () => {
    const member = await t.loginAs('free');
    expect((await post('/api/account/name', { name: 'New Name' }, member.headers)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/me', headers: member.headers })).json().name).toBe('New Name');
    expect((await post('/api/account/name', { name: '' }, member.headers)).statusCode).toBe(400);
  });

  it('changes the email once the new address confirms it, telling the old one', async () => {
    const member = await t.loginAs('gold', { name: 'Morgan Move' });
    const newEmail = uniqueEmail('moved');
    expect((await post('/api/account/email', { email: newEmail, password: 'wrong' }, member.headers)).json().detail).toBe(
      'Your current password is not right.',
    );
    const asked = await post('/api/account/email', { email: newEmail, password: member.password }, member.headers);
    expect(asked.statusCode).toBe(200);
    const [notice] = await smtp.waitFor(member.email);
    expect(notice!.subject).toBe('Your email address is changing');
    const [confirm] = await smtp.waitFor(newEmail);
    expect((await t.app.inject({ url: '/api/auth/me', headers: member.headers })).json().email).toBe(member.email);
    // Confirmed from the member's own device, which stays signed in (every other one is signed out).
    const token = tokenOf(linkIn(confirm!, `${PUBLIC_URL}/confirm-email?token=`));
    expect((await post('/api/account/email/confirm', { token }, member.headers)).statusCode).toBe(200);
    const me = (await t.app.inject({ url: '/api/auth/me', headers: member.headers })).json();
    expect(me).toMatchObject({ email: newEmail, email_verified: true });
    expect((await post('/api/auth/login', { email: newEmail, password: member.password })).statusCode).toBe(200);
  });

  it('changes the password with the current one, ends other sessions and mails a notice', async () => {
    const member = await t.loginAs('bronze');
    const other = (await post('/api/auth/login', { email: member.email, password: member.password })).json().token as string;
    expect(
      (await post('/api/account/password', { current_password: 'nope', new_password: 'newer secret' }, member.headers)).statusCode,
    ).toBe(400);
    const changed = await post(
      '/api/account/password',
      { current_password: member.password, new_password: 'newer secret' },
      member.headers,
    );
    expect(changed.json()).toEqual({ success: true, ended: 1 });
    expect((await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${other}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/me', headers: member.headers })).statusCode).toBe(200);
    const [notice] = await smtp.waitFor(member.email);
    expect(notice!.subject).toBe('Your password was changed');
  });

  it('deletes the account with the password, removing the member and their sessions, and tells them', async () => {
    const member = await t.loginAs('silver', { name: 'Dana Delete' });
    expect((await post('/api/account/delete', { password: 'nope' }, member.headers)).statusCode).toBe(400);
    expect((await post('/api/account/delete', { password: member.password }, member.headers)).statusCode).toBe(200);
    expect(await t.db.select().from(members).where(eq(members.id, member.memberId))).toHaveLength(0);
    expect(await t.db.select().from(sessions).where(eq(sessions.memberId, member.memberId))).toHaveLength(0);
    expect((await t.app.inject({ url: '/api/auth/me', headers: member.headers })).statusCode).toBe(401);
    const [goodbye] = await smtp.waitFor(member.email);
    expect(goodbye!.subject).toBe('Your RealtyPocket account was deleted');
  });
});

describe('contact form mail', () => {
  it('acknowledges the sender and tells staff, with reply-to set to the sender', async () => {
    const sender = uniqueEmail('prospect');
    const response = await post(
      '/api/contact',
      { name: 'Pat Prospect', email: sender, subject: 'Team pricing', message: 'We are 7 agents.' },
      {},
      '10.99.0.1',
    );
    expect(response.statusCode).toBe(201);
    const [ack] = await smtp.waitFor(sender);
    expect(ack!.subject).toBe('We received your message: Team pricing');
    const staffMail = (await smtp.waitFor('team@realtypocket.test')).find((mail) => mail.subject === 'Contact form: Team pricing')!;
    expect(staffMail.replyTo?.text).toBe(sender);
    expect(staffMail.text).toContain('We are 7 agents.');
  });
});

describe('certificates and unsubscribing', () => {
  it('mails the certificate with a one-click unsubscribe that is honoured', async () => {
    const member = await t.loginAs('free', { name: 'Casey Certified' });
    // The congratulation is lifecycle mail's 'course finished', sent by the minute's step.
    const lifecycleStep = () => sendLifecycleMail(createDataAccess(t.db), createMailer({ publicUrl: PUBLIC_URL, nudge: () => {} }));
    const complete = async (course: string, lessons: number) => {
      await post(`/api/courses/${course}/enrol`, undefined, member.headers);
      for (let lesson = 1; lesson <= lessons; lesson++) await post(`/api/lessons/${course}-l${lesson}/complete`, undefined, member.headers);
      await lifecycleStep();
    };
    await complete('first-90-days', 6);
    // With it, the welcome the member's sign-up brought.
    const mail = (await smtp.waitFor(member.email, 2)).find((each) => each.subject === 'Well done: you finished a course');
    expect(mail!.text).toContain('You finished Your First 90 Days in Real Estate.');
    // RFC 8058 one-click unsubscribe headers.
    const header = (name: string) => mail!.headerLines.find((line) => line.key === name)?.line ?? '';
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const unsubscribeUrl = new URL(/<([^>]+)>/.exec(header('list-unsubscribe'))![1]!);
    expect(unsubscribeUrl.origin).toBe(PUBLIC_URL);
    const unsubscribe = await t.app.inject({
      method: 'POST',
      url: `${unsubscribeUrl.pathname}${unsubscribeUrl.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribe.statusCode).toBe(200);
    const [row] = await t.db.select().from(members).where(eq(members.id, member.memberId));
    expect(row!.emailOptOut).toBe(true);
    // The next certificate is not mailed.
    const before = smtp.to(member.email).length;
    const lessons = (await t.app.inject(`/api/courses/sphere-of-influence/lessons`)).json().length as number;
    await complete('sphere-of-influence', lessons);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(smtp.to(member.email)).toHaveLength(before);
  });
});

describe('the outbox', () => {
  it('keeps a message through an SMTP outage and a restart, and delivers it once', async () => {
    smtp.setDown(true);
    const email = uniqueEmail('outage');
    await post('/api/contact', { name: 'Olive Outage', email, subject: 'During the outage', message: 'Hello?' }, {}, '10.99.0.2');
    await expect
      .poll(async () => (await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, email)))[0]?.attempts ?? 0, {
        timeout: 5000,
      })
      .toBeGreaterThanOrEqual(1);
    const [waiting] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, email));
    expect(waiting!.status).toBe('pending');
    expect(waiting!.lastError).toMatch(/try again later/);
    await t.restart();
    smtp.setDown(false);
    await smtp.waitFor(email);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(smtp.to(email)).toHaveLength(1);
    const [sent] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, email));
    expect(sent!.status).toBe('sent');
  });

  it('is delivered once even with two servers sending from the same outbox', async () => {
    const second = await t.anotherServer();
    const senders = Array.from({ length: 12 }, (_, index) => uniqueEmail(`pair-${index}`));
    await Promise.all(
      senders.map((email, index) =>
        (index % 2 ? second : t.app).inject({
          method: 'POST',
          url: '/api/contact',
          payload: { name: 'Pair Test', email, subject: `Two servers ${index}`, message: 'Once, please.' },
          remoteAddress: `10.98.0.${index}`,
        }),
      ),
    );
    for (const email of senders) await smtp.waitFor(email);
    await new Promise((resolve) => setTimeout(resolve, 800));
    for (const email of senders) expect(smtp.to(email), email).toHaveLength(1);
  });

  it('without SMTP_URL, writes each message as an .eml file under DATA_DIR/outbox', async () => {
    const offline = await createTestApp({ seed: false, mailTiming: { pollMs: 200 } });
    try {
      const email = uniqueEmail('offline');
      await offline.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: 'Offline Olga', email, password: 'secret12' },
      });
      const outbox = path.join(offline.dataDir, 'outbox');
      await expect
        .poll(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((file) => file.endsWith('.eml')) : []).length, { timeout: 5000 })
        .toBe(1);
      const [file] = fs.readdirSync(outbox).filter((name) => name.endsWith('.eml'));
      const eml = fs.readFileSync(path.join(outbox, file!), 'utf8');
      expect(eml).toContain(`To: ${email}`);
      expect(eml).toContain('Subject: Welcome to RealtyPocket');
    } finally {
      await offline.close();
    }
  });
});
