import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Automations, AutomationView } from '../../common/lifecycle.contract.ts';
import {
  certificates,
  courses,
  lessonPositions,
  lessons,
  lifecycleMails,
  memberLastSeen,
  members,
  notificationPreferences,
  offers,
  outboxMessages,
  subscriptions,
} from '../../db/schema.ts';
import { forgetOldLifecycleMails } from '../../server/accounts/data-retention.ts';
import { sendLifecycleMail } from '../../server/lifecycle/lifecycle-mail.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { injectAs, type ViewerHeaders } from '../helpers/inject-as.ts';
import { silverSubscription } from '../helpers/subscription-row.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Lifecycle mail (issue: 'Run the business by its numbers', part 2): each automation goes once per
// member and occasion, from two servers at once, at its moment plus its delay; never to a member who
// unsubscribed or turned off the team's messages by email; owners change and switch off each one,
// and staff see what each mail did.

let t: TestApp;
let owner: ViewerHeaders;
let editor: ViewerHeaders;
beforeAll(async () => {
  t = await createTestApp();
  owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
});
afterAll(() => t.close());

const request = injectAs(() => t);
const DAY = 24 * 60 * 60 * 1000;
const mailer = createMailer({ publicUrl: 'http://localhost', nudge: () => {} });
/** Two servers running the minute's step at the same moment. */
const runTwice = (at: Date) =>
  Promise.all([sendLifecycleMail(createDataAccess(t.db), mailer, at), sendLifecycleMail(createDataAccess(t.db), mailer, at)]);
const mailsTo = (email: string, key?: string) =>
  t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.toAddress, email), like(outboxMessages.kind, key ? `lifecycle-${key}` : 'lifecycle-%')));
const later = (days: number) => new Date(Date.now() + days * DAY);

async function subscription(member: MemberLogin, id: string, values: Partial<typeof subscriptions.$inferInsert>) {
  await t.db
    .insert(subscriptions)
    .values(silverSubscription(id, member.memberId, { startedAt: new Date(Date.now() - 40 * DAY), ...values }));
}
const setStatus = (id: string, values: Partial<typeof subscriptions.$inferInsert>) =>
  t.db.update(subscriptions).set(values).where(eq(subscriptions.id, id));

async function automation(key: string): Promise<AutomationView> {
  const list = await request('GET', '/api/admin/automations', owner);
  expect(list.statusCode, list.body).toBe(200);
  return (list.json() as Automations).automations.find((each) => each.key === key)!;
}
const save = (
  key: string,
  changes: Partial<{ enabled: boolean; subject: string; body: string; delay_days: number; offer_code: string }>,
  as = owner,
) =>
  automation(key).then((current) =>
    request('PUT', `/api/admin/automations/${key}`, as, {
      enabled: current.enabled,
      subject: current.subject,
      body: current.body,
      delay_days: current.delay_days,
      ...changes,
    }),
  );

describe('the welcome series', () => {
  it('welcomes at sign-up, then on day 2 and day 7, once each from two servers, never those who opted out', async () => {
    const [ann, quiet, noTeamMail] = [await t.loginAs('free', { name: 'Ann' }), await t.loginAs('free'), await t.loginAs('free')];
    await t.db.update(members).set({ emailOptOut: true }).where(eq(members.id, quiet.memberId));
    await t.db
      .insert(notificationPreferences)
      .values({ memberId: noTeamMail.memberId, kind: 'broadcast', site: true, email: false, push: false });

    await runTwice(new Date());
    await runTwice(new Date());
    const welcome = await mailsTo(ann.email, 'welcome');
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.subject).toBe('Where to start at RealtyPocket');
    expect(welcome[0]!.text).toContain('Hi Ann, welcome aboard!');
    expect(welcome[0]!.unsubscribeUrl).not.toBeNull();
    // Its links go through the site's counted link, to the site's pages.
    expect(welcome[0]!.html).toMatch(/\/api\/lifecycle\/mails\/[0-9a-f-]{36}\/go\?to=%2Fcourses/);

    await runTwice(later(2));
    await runTwice(later(2.5));
    expect((await mailsTo(ann.email, 'welcome-day-2')).map((mail) => mail.subject)).toEqual(['Meet the agents who are doing it too']);
    await runTwice(later(7));
    expect(await mailsTo(ann.email, 'welcome-day-7')).toHaveLength(1);
    // Each once: the at-sign-up mail is not sent again days later.
    expect(await mailsTo(ann.email)).toHaveLength(3);
    expect(await mailsTo(quiet.email)).toEqual([]);
    expect(await mailsTo(noTeamMail.email)).toEqual([]);
  });

  it('lets a moment long past go when a mail is switched on: nobody who joined long ago gets it', async () => {
    const old = await t.loginAs('free');
    await t.db
      .update(members)
      .set({ createdAt: new Date(Date.now() - 60 * DAY) })
      .where(eq(members.id, old.memberId));
    await runTwice(new Date());
    expect(await mailsTo(old.email)).toEqual([]);
  });
});

describe('billing moments', () => {
  it('tells a member their trial ends, in their time zone, three days before', async () => {
    const trial = await t.loginAs('free');
    await t.app.inject({
      method: 'PUT',
      url: '/api/account/time-zone',
      headers: trial.headers,
      payload: { time_zone: 'America/Los_Angeles' },
    });
    // 2 days and 6 hours left: 2027-... whatever the date, its day in Los Angeles is named.
    const endsAt = new Date(Date.now() + 2 * DAY + 6 * 3600_000);
    await subscription(trial, 'sub_trial', { status: 'trialing', tier: 'gold', trialEndsAt: endsAt });
    // A trial already cancelled ends without a charge: nothing to tell.
    const cancelled = await t.loginAs('free');
    await subscription(cancelled, 'sub_trial_cancelled', { status: 'trialing', trialEndsAt: endsAt, cancelAtPeriodEnd: true });
    await runTwice(new Date());
    expect(await mailsTo(cancelled.email, 'trial-ending')).toEqual([]);
    const [mail, ...more] = await mailsTo(trial.email, 'trial-ending');
    expect(more).toEqual([]);
    const day = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'America/Los_Angeles',
    }).format(endsAt);
    expect(mail!.text).toContain(`Your Gold trial ends on ${day}.`);
  });

  it('asks for a new card a day after a payment failed, once per failing spell, and tells when the plan ended unpaid', async () => {
    const late = await t.loginAs('free');
    await subscription(late, 'sub_late', {});
    await setStatus('sub_late', { status: 'past_due' });
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, 'sub_late'));
    expect(row!.pastDueSince).not.toBeNull();

    await runTwice(new Date());
    expect(await mailsTo(late.email, 'payment-failed')).toEqual([]); // its delay is a day
    await runTwice(later(1.1));
    await runTwice(later(1.5));
    const [dunning, ...again] = await mailsTo(late.email, 'payment-failed');
    expect(again).toEqual([]);
    expect(dunning!.subject).toBe('Please update your card');
    expect(dunning!.html).toContain('Update my card');
    expect(dunning!.html).toContain('to=%2Faccount%2Fbilling');

    // Stripe's last retry fails: the plan ends while past due.
    await setStatus('sub_late', { status: 'canceled', endedAt: new Date() });
    await runTwice(new Date());
    await runTwice(later(0.5));
    expect((await mailsTo(late.email, 'plan-ended')).map((mail) => mail.subject)).toEqual(['Your membership has ended']);
    // Ended unpaid is not a cancellation: no win-back for it.
    await runTwice(later(14.2));
    expect(await mailsTo(late.email, 'win-back')).toEqual([]);
  });

  it('writes to a member who cancelled, after the delay, with the owner’s offer code; not to one who pays again', async () => {
    const [gone, back] = [await t.loginAs('free'), await t.loginAs('free')];
    await subscription(gone, 'sub_gone', {});
    await subscription(back, 'sub_back_old', {});
    await setStatus('sub_gone', { status: 'canceled', endedAt: new Date() });
    await setStatus('sub_back_old', { status: 'canceled', endedAt: new Date() });
    await subscription(back, 'sub_back_new', {});

    const [offer] = await t.db
      .insert(offers)
      .values({
        code: 'COMEBACK20',
        name: 'Come back',
        stripeCouponId: 'co_test',
        stripePromotionCodeId: 'promo_test',
        percentOff: 20,
        duration: 'once',
        plans: ['silver-monthly'],
        createdBy: 'owner@example.com',
      })
      .returning();
    expect(offer).toBeDefined();
    const refused = await save('win-back', { offer_code: 'NOSUCHCODE' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toBe('No live offer has the code NOSUCHCODE.');
    expect((await save('win-back', { offer_code: 'comeback20' })).statusCode).toBe(200);
    expect((await save('welcome', { offer_code: 'COMEBACK20' })).json().detail).toBe('Only the win-back mail carries an offer code.');

    await runTwice(later(13));
    expect(await mailsTo(gone.email, 'win-back')).toEqual([]);
    await runTwice(later(14.1));
    const [mail, ...more] = await mailsTo(gone.email, 'win-back');
    expect(more).toEqual([]);
    expect(mail!.text).toContain('Use the code COMEBACK20 at checkout.');
    expect(mail!.html).toContain('to=%2Fpricing%3Foffer%3DCOMEBACK20');
    expect(await mailsTo(back.email, 'win-back')).toEqual([]);
  });
});

describe('learning moments', () => {
  it('nudges a member quiet for 14 days with the lesson where they stopped, once for that quiet spell', async () => {
    const quiet = await t.loginAs('free');
    const [lesson] = await t.db
      .select({ id: lessons.id, title: lessons.title, courseId: lessons.courseId, course: courses.title })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .limit(1);
    await t.db
      .insert(lessonPositions)
      .values({ memberId: quiet.memberId, lessonId: lesson!.id, positionSeconds: 30, durationSeconds: 600 });
    const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
    await t.db
      .update(memberLastSeen)
      .set({ seenOn: day(-14) })
      .where(eq(memberLastSeen.memberId, quiet.memberId));

    await runTwice(new Date());
    await runTwice(new Date());
    const [nudge, ...more] = await mailsTo(quiet.email, 'inactive');
    expect(more).toEqual([]);
    expect(nudge!.text).toContain(`You stopped at "${lesson!.title}" in ${lesson!.course}.`);
    expect(nudge!.html).toContain(`to=%2Fcourses%2F${encodeURIComponent(encodeURIComponent(lesson!.courseId))}%3Flesson%3D`);
  });

  it('congratulates a member who finished a course, with their certificate and a course to take next', async () => {
    const done = await t.loginAs('gold');
    const [course] = await t.db.select().from(courses).limit(1);
    await t.db
      .insert(certificates)
      .values({ memberId: done.memberId, courseId: course!.id, code: 'RP-LIFE-0001', memberName: 'Test', courseTitle: course!.title });
    await runTwice(new Date());
    const [mail, ...more] = await mailsTo(done.email, 'course-finished');
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Well done: you finished a course');
    expect(mail!.text).toContain(`You finished ${course!.title}.`);
    expect(mail!.text).toMatch(/What to take next: .+\./);
    expect(mail!.html).toContain('to=%2Fcertificates%2FRP-LIFE-0001');
  });
});

describe('owners keep the automations; staff read what they did', () => {
  it('lets an owner change the text and delay, and switch a mail off; editors read but cannot change', async () => {
    expect((await save('welcome', { subject: 'Changed by an editor' }, editor)).statusCode).toBe(403);
    const unknown = await request('PUT', '/api/admin/automations/nonsense', owner, {
      enabled: true,
      subject: 'S',
      body: 'B',
      delay_days: 1,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Choose an automation');
    expect((await request('GET', '/api/admin/automations', editor)).statusCode).toBe(200);
    const member = await t.loginAs('free');
    expect((await request('GET', '/api/admin/automations', member.headers as ViewerHeaders)).statusCode).toBe(403);
    expect((await request('GET', '/api/admin/automations')).statusCode).toBe(401);

    for (const [changes, detail] of [
      [{ delay_days: -1 }, 'The delay cannot be negative'],
      [{ delay_days: 91 }, 'Wait at most 90 days'],
      [{ subject: 'Hello\r\nBcc: everyone@example.com' }, 'The subject must be a single line'],
      [{ body: '[gold]\nFor gold only' }, undefined],
    ] as const) {
      const refused = await save('welcome-day-2', changes);
      expect(refused.statusCode, refused.body).toBe(400);
      if (detail) expect(refused.body).toContain(detail);
    }

    const changed = await save('welcome-day-2', {
      subject: 'Say hello, {name}',
      body: 'Our community is waiting, {name}.\n\n[gold]\nGold members: the Lounge is yours too.\n[/gold]',
      delay_days: 3,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const newcomer = await t.loginAs('free', { name: 'Bea' });
    const goldNewcomer = await t.loginAs('gold', { name: 'Gil' });
    await runTwice(later(2.1));
    expect(await mailsTo(newcomer.email, 'welcome-day-2')).toEqual([]);
    await runTwice(later(3.1));
    const [mail] = await mailsTo(newcomer.email, 'welcome-day-2');
    expect(mail!.subject).toBe('Say hello, Bea');
    expect(mail!.text).toContain('Our community is waiting, Bea.');
    // A section for Gold reaches Gold members only.
    expect(mail!.text).not.toContain('the Lounge is yours too');
    expect((await mailsTo(goldNewcomer.email, 'welcome-day-2'))[0]!.text).toContain('Gold members: the Lounge is yours too.');

    expect((await save('welcome-day-7', { enabled: false })).statusCode).toBe(200);
    await runTwice(later(7.1));
    expect(await mailsTo(newcomer.email, 'welcome-day-7')).toEqual([]);
    expect((await automation('welcome-day-7')).enabled).toBe(false);
  });

  it('counts a mail opened when its link is followed, and what followed: a return, an upgrade, paying again', async () => {
    const reader = await t.loginAs('free');
    await subscription(reader, 'sub_reader', {});
    await setStatus('sub_reader', { status: 'past_due' });
    await runTwice(later(1.1));
    const [sent] = await t.db
      .select()
      .from(lifecycleMails)
      .where(and(eq(lifecycleMails.memberId, reader.memberId), eq(lifecycleMails.automation, 'payment-failed')));
    const before = (await automation('payment-failed')).figures;

    // Only pages of the site: never a door to elsewhere.
    for (const to of ['https://evil.example.com/', '//evil.example.com/', '/\\evil.example.com', 'javascript:alert(1)'])
      expect((await request('GET', `/api/lifecycle/mails/${sent!.id}/go?to=${encodeURIComponent(to)}`)).statusCode).toBe(400);
    const followed = await request('GET', `/api/lifecycle/mails/${sent!.id}/go?to=${encodeURIComponent('/account/billing')}`);
    expect(followed.statusCode).toBe(302);
    expect(new URL(followed.headers.location as string).pathname).toBe('/account/billing');
    await request('GET', `/api/lifecycle/mails/${sent!.id}/go?to=%2F`);
    // The card is updated: the subscription pays again, after the mail.
    await setStatus('sub_reader', { status: 'active', updatedAt: new Date(Date.now() + 60_000) });
    await t.db
      .update(memberLastSeen)
      .set({ seenOn: later(1).toISOString().slice(0, 10) })
      .where(eq(memberLastSeen.memberId, reader.memberId));

    const after = (await automation('payment-failed')).figures;
    expect(after.sent).toBe(before.sent);
    expect(after.opened).toBe(before.opened + 1);
    expect(after.renewed).toBe(before.renewed + 1);
    expect(after.returned).toBe(before.returned + 1);
  });

  it('forgets a sent mail’s claim after 180 days, when no occasion of it can come due again', async () => {
    const member = await t.loginAs('free');
    const [old, recent] = await t.db
      .insert(lifecycleMails)
      .values([
        { automation: 'inactive', memberId: member.memberId, occasion: '2026-01-01', sentAt: new Date(Date.now() - 181 * DAY) },
        { automation: 'inactive', memberId: member.memberId, occasion: '2026-05-01', sentAt: new Date(Date.now() - 179 * DAY) },
      ])
      .returning();
    expect(await forgetOldLifecycleMails(createDataAccess(t.db))).toBeGreaterThanOrEqual(1);
    const left = (await t.db.select().from(lifecycleMails).where(eq(lifecycleMails.memberId, member.memberId))).map((row) => row.id);
    expect(left).toEqual([recent!.id]);
    expect(left).not.toContain(old!.id);
  });
});
