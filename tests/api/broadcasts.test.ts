import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROADCAST_NOT_FOUND, type StaffBroadcast } from '../../common/broadcasts.contract.ts';
import { broadcasts, members, outboxMessages, sessions } from '../../db/schema.ts';
import { sendDueBroadcasts } from '../../server/broadcasts/broadcast-sender.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let editor: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
});
afterAll(() => t.close());

type Headers = { authorization: string } | Record<string, never>;
const request = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });
const mailer = createMailer({ publicUrl: 'http://localhost:3000', nudge: () => {} });
/** The minute job, as one server process runs it. */
const sendingRun = (now = new Date()) => sendDueBroadcasts(createDataAccess(t.db), mailer, now);

const BODY = [
  '## This week at RealtyPocket',
  'A new [course on pricing](/courses) is out.',
  '',
  '[gold]',
  'Gold members: the private mastermind call is on Thursday.',
  '[/gold]',
  '',
  'See you in the community.',
].join('\n');
let numbered = 0;
async function draft(audience: string[], body = BODY): Promise<StaffBroadcast> {
  const made = await request('POST', '/api/admin/broadcasts', editor, { subject: `News ${++numbered} ${Date.now()}`, body, audience });
  expect(made.statusCode, made.body).toBe(201);
  return made.json();
}
const mailsTo = (who: MemberLogin, subject: string) =>
  t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.toAddress, who.email), eq(outboxMessages.subject, subject)));

describe('who writes broadcasts', () => {
  it('lets editors and owners write them, and refuses members and visitors', async () => {
    const gold = await t.loginAs('gold');
    expect((await request('GET', '/api/admin/broadcasts')).statusCode).toBe(401);
    const refused = await request('POST', '/api/admin/broadcasts', gold.headers, { subject: 'Hi', body: 'Hello', audience: ['gold'] });
    expect(refused.statusCode).toBe(403);
    const made = await draft(['gold']);
    expect(made).toMatchObject({ status: 'draft', sent_count: 0 });
    expect((await request('GET', '/api/admin/broadcasts', editor)).json()[0].id).toBe(made.id);
  });

  it('refuses visitors and bad ids on the members’ and the redirect’s routes', async () => {
    expect((await request('GET', '/api/broadcasts')).statusCode).toBe(401);
    const gold = await t.loginAs('gold');
    const badId = await request('GET', '/api/broadcasts/not-an-id', gold.headers);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().detail).toContain('Broadcast must be a valid id');
    expect((await request('GET', '/api/broadcasts/00000000-0000-4000-8000-000000000000/go?to=%2Fcourses')).statusCode).toBe(404);
    const unsent = await draft(['gold']);
    expect((await request('GET', `/api/broadcasts/${unsent.id}`, gold.headers)).statusCode).toBe(404);
  });

  it('says what is wrong with a broadcast that cannot be sent', async () => {
    const unclosed = await request('POST', '/api/admin/broadcasts', editor, {
      subject: 'Oops',
      body: '[gold]\nSecret',
      audience: ['gold'],
    });
    expect(unclosed.statusCode).toBe(400);
    expect(unclosed.body).toContain('The [gold] section is never closed: add [/gold].');
    const nobody = await request('POST', '/api/admin/broadcasts', editor, { subject: 'Oops', body: 'Hello', audience: [] });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.body).toContain('Choose at least one tier it goes to');
  });
});

describe('sending', () => {
  it('mails each member of the audience once, with only the sections their tier reaches, even with two processes at once', async () => {
    const [bronze, gold, silver, optedOut] = [
      await t.loginAs('bronze'),
      await t.loginAs('gold'),
      await t.loginAs('silver'),
      await t.loginAs('gold'),
    ];
    await t.db.update(members).set({ emailOptOut: true }).where(eq(members.id, optedOut.memberId));
    const broadcast = await draft(['bronze', 'gold']);
    const preview = (await request('GET', `/api/admin/broadcasts/${broadcast.id}/preview`, editor)).json();
    expect(JSON.stringify(preview.bronze)).not.toContain('mastermind');
    expect(JSON.stringify(preview.gold)).toContain('mastermind');

    expect((await request('POST', `/api/admin/broadcasts/${broadcast.id}/send`, editor, {})).json()).toMatchObject({ status: 'scheduled' });
    await Promise.all([sendingRun(), sendingRun()]);
    await sendingRun();

    const [toBronze, toGold] = [await mailsTo(bronze, broadcast.subject), await mailsTo(gold, broadcast.subject)];
    expect(toBronze).toHaveLength(1);
    expect(toGold).toHaveLength(1);
    for (const part of [toBronze[0]!.html, toBronze[0]!.text]) {
      expect(part).toContain('See you in the community.');
      expect(part).not.toContain('mastermind');
    }
    expect(toGold[0]!.text).toContain('Gold members: the private mastermind call is on Thursday.');
    expect(toGold[0]!.html).toContain(`href="http://localhost:3000/api/broadcasts/${broadcast.id}/go?to=%2Fcourses"`);
    // One-click unsubscribe (RFC 8058) on every copy.
    expect(toGold[0]!.unsubscribeUrl).toMatch(/\/api\/email\/unsubscribe\?token=/);
    expect(await mailsTo(silver, broadcast.subject)).toHaveLength(0);
    expect(await mailsTo(optedOut, broadcast.subject)).toHaveLength(0);

    const [row] = await t.db.select().from(broadcasts).where(eq(broadcasts.id, broadcast.id));
    expect(row).toMatchObject({ status: 'sent' });
    const everyCopy = await t.db
      .select({ to: outboxMessages.toAddress })
      .from(outboxMessages)
      .where(eq(outboxMessages.subject, broadcast.subject));
    expect(new Set(everyCopy.map((copy) => copy.to)).size).toBe(everyCopy.length);
    expect(row!.sentCount).toBe(everyCopy.length);

    // The copy on the site: the same sections, for the tiers it went to only.
    const onSite = (await request('GET', `/api/broadcasts/${broadcast.id}`, bronze.headers)).json();
    expect(JSON.stringify(onSite)).toContain('This week at RealtyPocket');
    expect(JSON.stringify(onSite)).not.toContain('mastermind');
    expect(JSON.stringify((await request('GET', `/api/broadcasts/${broadcast.id}`, gold.headers)).json())).toContain('mastermind');
    const notForSilver = await request('GET', `/api/broadcasts/${broadcast.id}`, silver.headers);
    expect(notForSilver.statusCode).toBe(404);
    expect(notForSilver.json().detail).toBe(BROADCAST_NOT_FOUND);
    expect((await request('GET', '/api/broadcasts', bronze.headers)).json().map((each: { id: string }) => each.id)).toContain(broadcast.id);
    // Sent is sent: no second sending, no change.
    expect((await request('POST', `/api/admin/broadcasts/${broadcast.id}/send`, editor, {})).statusCode).toBe(409);
  });

  it('waits for the time chosen, and sends a test to the staff member alone', async () => {
    const gold = await t.loginAs('gold');
    const broadcast = await draft(['gold']);
    const staffLogin = await t.loginAsStaff({ role: 'owner' });
    const owner = { authorization: `Bearer ${staffLogin.token}` };
    expect((await request('POST', `/api/admin/broadcasts/${broadcast.id}/test`, owner)).statusCode).toBe(200);
    const tests = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, staffLogin.email));
    expect(tests.map((mail) => mail.subject)).toContain(`[Test] ${broadcast.subject}`);
    expect(tests.find((mail) => mail.subject === `[Test] ${broadcast.subject}`)!.text).toContain('mastermind');

    const past = await request('POST', `/api/admin/broadcasts/${broadcast.id}/send`, editor, { send_at: '2020-01-01T09:00:00Z' });
    expect(past.statusCode).toBe(400);
    const at = new Date(Date.now() + 2 * 3600_000);
    expect((await request('POST', `/api/admin/broadcasts/${broadcast.id}/send`, editor, { send_at: at.toISOString() })).statusCode).toBe(
      200,
    );
    await sendingRun();
    expect(await mailsTo(gold, broadcast.subject)).toHaveLength(0);
    await sendingRun(new Date(at.getTime() + 60_000));
    expect(await mailsTo(gold, broadcast.subject)).toHaveLength(1);
  });

  it('narrows the audience to a course and to members not seen lately, and counts deliveries, failures, unsubscribes and clicks', async () => {
    const [learner, idle, recent] = [await t.loginAs('gold'), await t.loginAs('gold'), await t.loginAs('gold')];
    expect((await request('POST', '/api/courses/first-90-days/enrol', learner.headers)).statusCode).toBe(200);
    const toLearners = await request('POST', '/api/admin/broadcasts', editor, {
      subject: `Course news ${Date.now()}`,
      body: BODY,
      audience: ['gold'],
      course_id: 'first-90-days',
    });
    expect(toLearners.statusCode, toLearners.body).toBe(201);
    const unknownCourse = await request('POST', '/api/admin/broadcasts', editor, {
      subject: 'X',
      body: 'Y',
      audience: ['gold'],
      course_id: 'no-such-course',
    });
    expect(unknownCourse.statusCode).toBe(400);
    expect(unknownCourse.json().detail).toBe('Choose a course from the catalogue.');

    const lapsed = await request('POST', '/api/admin/broadcasts', editor, {
      subject: `We miss you ${Date.now()}`,
      body: BODY,
      audience: ['gold'],
      inactive_days: 30,
    });
    // The idle member's sessions were last used two months ago.
    await t.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 60 * 24 * 3600_000) })
      .where(eq(sessions.memberId, idle.memberId));
    for (const made of [toLearners, lapsed]) await request('POST', `/api/admin/broadcasts/${made.json().id}/send`, editor, {});
    await sendingRun();
    const courseNews = toLearners.json().subject;
    expect(await mailsTo(learner, courseNews)).toHaveLength(1);
    expect(await mailsTo(recent, courseNews)).toHaveLength(0);
    expect(await mailsTo(idle, lapsed.json().subject)).toHaveLength(1);
    expect(await mailsTo(recent, lapsed.json().subject)).toHaveLength(0);

    // The mail worker settles the copy, the member unsubscribes, someone follows a link.
    const [copy] = await mailsTo(learner, courseNews);
    expect(copy!.html).toContain(`/api/broadcasts/${toLearners.json().id}/go?to=%2Fcourses`);
    await t.db.update(outboxMessages).set({ status: 'sent' }).where(eq(outboxMessages.id, copy!.id));
    await t.db.update(members).set({ emailOptOut: true }).where(eq(members.id, learner.memberId));
    const click = await request('GET', `/api/broadcasts/${toLearners.json().id}/go?to=%2Fcourses`);
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('http://localhost:3000/courses');
    const elsewhere = await request('GET', `/api/broadcasts/${toLearners.json().id}/go?to=${encodeURIComponent('https://evil.example')}`);
    expect(elsewhere.statusCode).toBe(404);
    const listed = (await request('GET', '/api/admin/broadcasts', editor))
      .json()
      .find((each: StaffBroadcast) => each.id === toLearners.json().id);
    expect(listed).toMatchObject({
      sent_count: 1,
      delivered_count: 1,
      failed_count: 0,
      unsubscribed_count: 1,
      clicks: 1,
      course_id: 'first-90-days',
    });
  });
});
