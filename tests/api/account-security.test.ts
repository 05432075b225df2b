import { eq, sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_LINK_INVALID, RESET_REQUESTED, VERIFY_LINK_INVALID } from '../../common/account.contract.ts';
import { EMAIL_TAKEN } from '../../common/auth.contract.ts';
import { accountTokens, auditLog, members, outboxMessages, subscriptions, teamMembers, teams } from '../../db/schema.ts';
import { purgeOldMail, removeLapsedMembers } from '../../server/accounts/data-retention.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { startPageApp, type PageApp } from '../helpers/page-app.ts';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/test-app.ts';

// Accounts that cannot be taken over: what the security review found, closed from the outside.

const PUBLIC_URL = 'https://learn.realtypocket.test';
let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    seed: false,
    env: { SMTP_URL: smtp.url, PUBLIC_URL },
    mailTiming: { pollMs: 200, retryBaseMs: 200 },
    captureLogs: true,
  });
});
// The site with its pages, for the tests that open a page as a browser (or a mail scanner) does.
let pages: Promise<PageApp> | undefined;
const pageApp = () => (pages ??= startPageApp(t));
afterAll(async () => {
  await (await pages)?.close();
  await t.close();
  await smtp.close();
});

let nextAddress = 0;
/** Each test speaks from addresses of its own, so one test's limits never meet another's. */
const clientAddress = () => `10.${(nextAddress >> 8) & 255}.${nextAddress++ & 255}.7`;
const post = (url: string, payload: object, options: { headers?: Record<string, string>; from?: string } = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: options.headers, remoteAddress: options.from ?? '127.0.0.1' });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const oneClickUnsubscribe = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/email/unsubscribe?token=${encodeURIComponent(token)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  });

/** Every link with a token in a message as it was sent: in its text, its HTML and its headers (List-Unsubscribe). */
function linksIn(mail: ParsedMail): { path: string; token: string }[] {
  const sent = [mail.text ?? '', typeof mail.html === 'string' ? mail.html : '', ...mail.headerLines.map((header) => header.line)].join(
    '\n',
  );
  return [...sent.matchAll(/https?:\/\/[^\s"'<>?]+\?token=([^&\s"'<>]+)/g)].map((match) => ({
    path: new URL(match[0]).pathname,
    token: decodeURIComponent(match[1]!),
  }));
}
const recipientOf = (mail: ParsedMail) => [mail.to].flat()[0]!.value[0]!.address!.toLowerCase();

/** Each row of every table, as `table {row as JSON}`: every text and JSON column the database holds. */
async function everyRowInTheDatabase(): Promise<string[]> {
  const rowsOf = async <T>(query: ReturnType<typeof sql.raw>) => ((await t.db.execute(query)) as unknown as { rows: T[] }).rows;
  const tables = await rowsOf<{ schema: string; name: string }>(
    sql.raw(
      "select table_schema as schema, table_name as name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')",
    ),
  );
  const rows: string[] = [];
  for (const table of tables) {
    const found = await rowsOf<{ row: string }>(sql.raw(`select row_to_json(t)::text as row from "${table.schema}"."${table.name}" t`));
    rows.push(...found.map((row) => `${table.name} ${row.row}`));
  }
  return rows;
}

describe('no working link at rest', () => {
  it('keeps no token that works in the outbox, nor anywhere else: each link is minted as its message is sent', async () => {
    const mailedBefore = smtp.messages.length;
    const member = await t.loginAs('silver', { name: 'Rest Easy' });
    const friend = await t.loginAs('silver', { name: 'Replying Friend' });
    const owner = await t.loginAsStaff();
    const editor = await t.loginAsStaff({ role: 'editor' });
    const invited = uniqueEmail('invited-editor');
    const newAddress = uniqueEmail('new-address');
    const signedUp = uniqueEmail('signed-up');
    // Every kind of message with a link: a member's reset, a staff invitation, a staff reset, an
    // email change, a sign-up's verification, and a reply notice with its one-click unsubscribe.
    await post('/api/auth/password-reset', { email: member.email }, { from: clientAddress() });
    await post('/api/admin/staff', { email: invited, role: 'editor' }, { headers: { authorization: `Bearer ${owner.token}` } });
    await post('/api/admin/password-reset', { email: editor.email }, { from: clientAddress() });
    await post('/api/account/email', { email: newAddress, password: member.password }, { headers: member.headers, from: clientAddress() });
    await post('/api/auth/register', { name: 'New Member', email: signedUp, password: 'secret12' }, { from: clientAddress() });
    const discussion = (
      await post('/api/community/posts', { title: 'Where do you farm?', body: 'Tell me your patch.' }, { headers: member.headers })
    ).json();
    await post(`/api/community/posts/${discussion.id}/replies`, { body: 'Mine is the east side.' }, { headers: friend.headers });
    const arrived = (address: string, subject: string) =>
      expect.poll(() => smtp.to(address).some((mail) => mail.subject?.includes(subject)), { timeout: 10_000 }).toBe(true);
    await arrived(member.email, 'Reset your password');
    await arrived(member.email, 'replied to "Where do you farm?"');
    for (const address of [invited, editor.email, newAddress, signedUp]) await smtp.waitFor(address);

    // Every link mailed during this test, wherever it stands in the message: text, HTML or headers.
    const mailed = smtp.messages.slice(mailedBefore).flatMap((mail) => linksIn(mail).map((link) => ({ ...link, to: recipientOf(mail) })));
    const tokensOf = (to: string, path: string) => [
      ...new Set(mailed.filter((link) => link.to === to && link.path === path).map((link) => link.token)),
    ];
    const mailedTokens = {
      reset: tokensOf(member.email, '/reset-password'),
      invitation: tokensOf(invited, '/admin/reset-password'),
      staffReset: tokensOf(editor.email, '/admin/reset-password'),
      verification: tokensOf(signedUp, '/verify-email'),
      emailChange: tokensOf(newAddress, '/confirm-email'),
      unsubscribe: tokensOf(member.email, '/unsubscribe'),
      oneClickUnsubscribe: tokensOf(member.email, '/api/email/unsubscribe'),
    };
    for (const [kind, tokens] of Object.entries(mailedTokens)) expect(tokens, kind).toHaveLength(1);
    // The unsubscribe link in the footer and the one in the List-Unsubscribe header are one link.
    expect(mailedTokens.oneClickUnsubscribe).toEqual(mailedTokens.unsubscribe);
    const allMailed = [...new Set(mailed.map((link) => link.token))];
    expect(allMailed.length).toBeGreaterThanOrEqual(6);

    // Whoever reads the database (a backup, a replica) finds none of them: not in the outbox (its
    // text, HTML, unsubscribe address or link grant), nor in any other column of any table.
    const outbox = await t.db.select().from(outboxMessages);
    const outboxText = outbox.flatMap((row) =>
      Object.values(row).map((value) => (typeof value === 'string' ? value : JSON.stringify(value))),
    );
    const everyRow = await everyRowInTheDatabase();
    expect(everyRow.some((row) => row.startsWith('outbox_messages '))).toBe(true);
    expect(everyRow.some((row) => row.startsWith('account_tokens '))).toBe(true);
    for (const token of allMailed) {
      expect(
        outboxText.filter((value) => value.includes(token)),
        `the outbox holds ${token}`,
      ).toEqual([]);
      expect(
        everyRow.filter((row) => row.includes(token)),
        `the database holds ${token}`,
      ).toEqual([]);
      expect(
        t.logs.filter((line) => line.includes(token)),
        `a log line holds ${token}`,
      ).toEqual([]);
    }

    // Nothing that looks like a token in the outbox opens anything, at any endpoint that takes a token.
    const kept = outboxText.join('\n');
    const standIns = [...kept.matchAll(/token=([^&\s"'<>\\]+)/g)].map((match) => match[1]!);
    expect(standIns.length).toBeGreaterThan(0);
    const lookalikes = [...kept.matchAll(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{20,100}(?![A-Za-z0-9_-])/g)].map((match) => match[0]);
    const candidates = [...new Set([...standIns, ...lookalikes])];
    expect(lookalikes.length).toBeGreaterThan(0);
    for (const token of candidates) {
      const checked = /^[A-Za-z0-9_-]{20,100}$/.test(token);
      for (const [name, url, payload, refusal] of [
        ['member reset', '/api/auth/password-reset/confirm', { token, password: 'taken over' }, RESET_LINK_INVALID],
        ['staff reset or invitation', '/api/admin/password-reset/confirm', { token, password: 'taken over' }, RESET_LINK_INVALID],
        ['email verification', '/api/auth/verify-email', { token }, VERIFY_LINK_INVALID],
        ['email change', '/api/account/email/confirm', { token }, VERIFY_LINK_INVALID],
      ] as const) {
        const answer = await post(url, payload, { from: clientAddress() });
        expect(answer.statusCode, `${name}: ${token}`).toBe(400);
        // A token of the right form is looked up, and refused as a link that does not work.
        if (checked) expect(answer.json().detail, `${name}: ${token}`).toBe(refusal);
      }
      const unsubscribed = await oneClickUnsubscribe(token);
      expect(unsubscribed.statusCode, `unsubscribe: ${token}`).toBe(400);
      if (checked) expect(unsubscribed.json().detail).toBe('This unsubscribe link is not valid.');
    }

    // Each link as mailed works (once): these were the live tokens the database was searched for.
    expect((await oneClickUnsubscribe(mailedTokens.oneClickUnsubscribe[0]!)).json()).toEqual({ success: true });
    expect((await post('/api/auth/verify-email', { token: mailedTokens.verification[0]! })).json()).toEqual({ success: true });
    expect((await post('/api/account/email/confirm', { token: mailedTokens.emailChange[0]! })).json()).toEqual({ success: true });
    for (const token of [mailedTokens.invitation[0]!, mailedTokens.staffReset[0]!])
      expect((await post('/api/admin/password-reset/confirm', { token, password: 'staff chose this' })).json()).toEqual({ success: true });
    const reset = { token: mailedTokens.reset[0]!, password: 'mine again' };
    expect((await post('/api/auth/password-reset/confirm', reset)).json()).toEqual({ success: true });
    expect((await post('/api/auth/password-reset/confirm', reset)).statusCode).toBe(400);
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

  it('answers 429 to a client that keeps trying wrong verification and email-change links', async () => {
    const member = await t.loginAs('free');
    for (const [url, headers] of [
      ['/api/auth/verify-email', {}],
      ['/api/account/email/confirm', member.headers],
    ] as const) {
      const from = clientAddress();
      const answers: number[] = [];
      for (let guess = 0; guess < 12; guess++) {
        answers.push((await post(url, { token: `guess-${guess}-${'z'.repeat(40)}` }, { from, headers })).statusCode);
      }
      expect(
        answers.slice(0, 10).every((status) => status === 400),
        `${url}: ${answers.join(' ')}`,
      ).toBe(true);
      expect(answers.slice(10), url).toEqual([429, 429]);
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
    // Of the mail to the member, only the goodbye is left (until the worker sends it, then until it is purged).
    const mail = await t.db
      .select({ kind: outboxMessages.kind })
      .from(outboxMessages)
      .where(sql`lower(${outboxMessages.toAddress}) = lower(${member.email})`);
    expect(mail.map((row) => row.kind)).toEqual(['account-deleted']);
  });

  it('removes mail sent more than 30 days ago, and keeps newer mail and mail still waiting', async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const message = (subject: string, status: 'sent' | 'failed' | 'pending', days: number) => ({
      kind: 'purge-test',
      toAddress: 'purge@example.com',
      subject,
      html: '<p>Gwen wrote: hello</p>',
      text: 'Gwen wrote: hello',
      status,
      createdAt: daysAgo(days),
    });
    await t.db
      .insert(outboxMessages)
      .values([
        message('old sent', 'sent', 31),
        message('old failed', 'failed', 40),
        message('old waiting', 'pending', 35),
        message('new sent', 'sent', 29),
      ]);
    expect(await purgeOldMail(createDataAccess(t.db))).toBeGreaterThanOrEqual(2);
    const left = await t.db.select({ subject: outboxMessages.subject }).from(outboxMessages).where(eq(outboxMessages.kind, 'purge-test'));
    expect(left.map((row) => row.subject).sort()).toEqual(['new sent', 'old waiting']);
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
    // Paid through a team: a broker whose own plan lapsed long ago, and an agent holding a seat.
    const broker = await withPlan(150);
    const agent = await withPlan(120);
    const [team] = await t.db
      .insert(teams)
      .values({
        name: 'Kept Realty',
        brokerId: broker.memberId,
        tier: 'silver',
        period: 'monthly',
        seats: 5,
        pricePerSeatCents: 4900,
        status: 'active',
      })
      .returning({ id: teams.id });
    await t.db.insert(teamMembers).values({ teamId: team!.id, memberId: agent.memberId });

    // Two processes at once: the removal happens, once, and neither fails.
    const data = createDataAccess(t.db);
    const removed = await Promise.all([removeLapsedMembers(data), removeLapsedMembers(data)]);
    expect(Math.max(...removed)).toBeGreaterThanOrEqual(1);
    const remaining = new Set((await t.db.select({ id: members.id }).from(members)).map((row) => row.id));
    expect(remaining.has(lapsed.memberId)).toBe(false);
    for (const kept of [recent, paying, given, neverPaid, broker, agent]) expect(remaining.has(kept.memberId)).toBe(true);
    expect(await removeLapsedMembers(data)).toBe(0);
  });
});

describe('what a member may read is decided when it is read', () => {
  it('shows a member moved from Gold to Silver no Gold Lounge text anywhere: feed, discussion, search, replies, dashboard, preview or mail', async () => {
    const author = await t.loginAs('gold', { name: 'Former Gold' });
    const friend = await t.loginAs('gold', { name: 'Gold Friend' });
    const owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    const headers = author.headers;
    const site = await pageApp();
    const lounge = (
      await post('/api/community/posts', { title: 'Lounge secret strategy', body: 'Only for Gold eyes.', space: 'gold' }, { headers })
    ).json();
    const open = (await post('/api/community/posts', { title: 'Open question', body: 'For everyone.' }, { headers })).json();
    await post(`/api/community/posts/${lounge.id}/replies`, { body: 'A Gold answer, private.' }, { headers: friend.headers });

    const get = (url: string) => t.app.inject({ url, headers });
    // The dashboard lists the member's own discussions (the community service's myPosts), as the page and the service give them.
    const dashboard = async () => (await site.app.inject({ url: '/dashboard', headers: { cookie: `rp_session=${author.token}` } })).body;
    const myPosts = async () => JSON.stringify(await t.app.services.community.myPosts(await t.viewerOf(author.token)));
    // While Gold, the author reads the Lounge on the dashboard, in their replies and by mail.
    expect((await get('/api/me/community/replies')).json()).toHaveLength(1);
    expect(await myPosts()).toContain('Lounge secret strategy');
    expect(await dashboard()).toContain('Lounge secret strategy');
    await expect
      .poll(() => smtp.to(author.email).some((mail) => mail.text?.includes('A Gold answer, private.')), { timeout: 10_000 })
      .toBe(true);

    await post(`/api/admin/members/${author.memberId}/tier`, { membership_tier: 'silver' }, { headers: owner });
    const mailedBefore = smtp.to(author.email).length;
    await post(`/api/community/posts/${lounge.id}/replies`, { body: 'Another Gold answer, after the move.' }, { headers: friend.headers });
    // A reply to their open discussion, after the Lounge one: its mail is the marker waited for below.
    await post(`/api/community/posts/${open.id}/replies`, { body: 'A marker answer, in the open.' }, { headers: friend.headers });

    expect((await get('/api/community/feed?space=gold')).statusCode).toBe(403);
    expect((await get(`/api/community/posts/${lounge.id}`)).statusCode).toBe(403);
    const seen = [
      (await get('/api/community/feed')).body,
      (await get('/api/community/feed?q=lounge%20secret%20strategy')).body,
      (await get('/api/community/posts')).body,
      (await get('/api/me/community/replies')).body,
      await myPosts(),
      await dashboard(),
      (await site.app.inject({ url: '/community', headers: { cookie: `rp_session=${author.token}` } })).body,
      (await site.app.inject({ url: '/', headers: { cookie: `rp_session=${author.token}` } })).body,
    ];
    // What is left of the dashboard is still the member's: their open discussion.
    expect(seen[4]).toContain('Open question');
    expect(seen[5]).toContain('Open question');
    for (const [index, answer] of seen.entries())
      for (const text of ['Lounge secret strategy', 'Only for Gold eyes', 'A Gold answer', 'Another Gold answer'])
        expect(answer, `answer ${index}`).not.toContain(text);

    // Nor by mail: the marker, sent after the Lounge reply, arrives; once nothing more waits for the
    // author in the outbox, no mail about the Lounge reached them after the move.
    await expect
      .poll(
        () =>
          smtp
            .to(author.email)
            .slice(mailedBefore)
            .some((mail) => mail.text?.includes('A marker answer')),
        { timeout: 10_000 },
      )
      .toBe(true);
    const waiting = async () =>
      (await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, author.email))).filter(
        (row) => row.status === 'pending',
      );
    await expect.poll(async () => (await waiting()).length, { timeout: 10_000 }).toBe(0);
    const mailed = smtp.to(author.email).slice(mailedBefore);
    expect(mailed.map((mail) => mail.subject)).toEqual(['Gold Friend replied to "Open question"']);
    for (const text of ['Lounge secret strategy', 'Another Gold answer'])
      expect(mailed.map((mail) => `${mail.subject} ${mail.text} ${String(mail.html)}`).join('\n')).not.toContain(text);
  });
});

describe('links that need a click', () => {
  /** The form of a page that an emailed link opens: where its button posts, and the token it carries. */
  const formOf = (html: string) => {
    for (const form of html.matchAll(/<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/g)) {
      const token = /<input type="hidden" name="token" value="([^"]*)"/.exec(form[2]!)?.[1];
      if (token !== undefined) return { action: form[1]!.replaceAll('&amp;', '&'), token };
    }
    throw new Error(`No form with a token in the page: ${html.slice(0, 200)}`);
  };

  it('changes nothing when a mail scanner opens the verification, email-change or reset page; the page’s button then does it', async () => {
    const site = await pageApp();
    const signedUp = uniqueEmail('scanned-signup');
    expect(
      (await post('/api/auth/register', { name: 'Scanned Sam', email: signedUp, password: 'secret12' }, { from: clientAddress() }))
        .statusCode,
    ).toBe(201);
    const mover = await t.loginAs('bronze', { name: 'Scanned Mover' });
    const newAddress = uniqueEmail('scanned-new');
    await post('/api/account/email', { email: newAddress, password: mover.password }, { headers: mover.headers, from: clientAddress() });
    const forgetful = await t.loginAs('free', { name: 'Scanned Reset' });
    await post('/api/auth/password-reset', { email: forgetful.email }, { from: clientAddress() });
    const verifyLink = linkIn((await smtp.waitFor(signedUp))[0]!, `${PUBLIC_URL}/verify-email?token=`);
    const confirmLink = linkIn((await smtp.waitFor(newAddress))[0]!, `${PUBLIC_URL}/confirm-email?token=`);
    const resetLink = linkIn((await smtp.waitFor(forgetful.email))[0]!, `${PUBLIC_URL}/reset-password?token=`);

    const [registered] = await t.db.select({ id: members.id }).from(members).where(eq(members.email, signedUp));
    const ids = [registered!.id, mover.memberId, forgetful.memberId];
    const state = async () => ({
      accounts: Object.fromEntries(
        (await t.db.select().from(members))
          .filter((row) => ids.includes(row.id))
          .map((row) => [row.id, { email: row.email, verified: row.emailVerifiedAt, passwordHash: row.passwordHash }]),
      ),
      links: (await t.db.select().from(accountTokens))
        .filter((row) => ids.includes(row.memberId ?? ''))
        .sort((one, other) => one.id.localeCompare(other.id)),
    });
    const before = await state();
    expect(Object.values(before.accounts).map((account) => account.verified)).toEqual([null, null, null]);
    expect(before.links.filter((link) => link.usedAt === null)).toHaveLength(3);

    // A scanner follows each link, twice, with and without the member's session, and asks for the page's data too.
    const opened: Record<string, string> = {};
    for (const link of [verifyLink, confirmLink, resetLink]) {
      const { pathname, search } = new URL(link);
      for (const cookie of [undefined, `rp_session=${mover.token}`]) {
        for (const url of [`${pathname}${search}`, `${pathname}${search}`, `${pathname}.data${search}`]) {
          const page = await site.app.inject({ url, headers: cookie ? { cookie } : {} });
          expect(page.statusCode, url).toBe(200);
          if (!url.includes('.data')) opened[pathname] = page.body;
        }
        expect((await site.app.inject({ method: 'HEAD', url: `${pathname}${search}` })).statusCode).toBe(200);
      }
    }
    expect(await state()).toEqual(before);

    // The page holds a button that posts the link's token; that click, and only it, does the work.
    const click = async (pathname: string, link: string, fields: Record<string, string> = {}) => {
      const form = formOf(opened[pathname]!);
      expect(form.token).toBe(tokenOf(link));
      return site.app.inject({
        method: 'POST',
        url: form.action,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `rp_session=${mover.token}` },
        payload: new URLSearchParams({ token: form.token, ...fields }).toString(),
      });
    };
    const verified = await click('/verify-email', verifyLink);
    expect(verified.statusCode).toBe(200);
    expect(verified.body).toContain('Thank you: your email address is confirmed.');
    const moved = await click('/confirm-email', confirmLink);
    expect(moved.body).toContain('Your account now uses this email address.');
    const reset = await click('/reset-password', resetLink, { password: 'chosen after the scan' });
    expect(reset.statusCode).toBe(200);
    const after = await state();
    expect(after.accounts[registered!.id]!.verified).not.toBeNull();
    expect(after.accounts[mover.memberId]!.email).toBe(newAddress);
    expect(after.accounts[forgetful.memberId]!.passwordHash).not.toBe(before.accounts[forgetful.memberId]!.passwordHash);
    expect(after.links.filter((link) => link.usedAt === null)).toHaveLength(0);
    const signIn = await post('/api/auth/login', { email: forgetful.email, password: 'chosen after the scan' }, { from: clientAddress() });
    expect(signIn.statusCode).toBe(200);
  });
});
