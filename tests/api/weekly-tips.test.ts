import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessages } from '../../db/schema.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { sendWeeklyTips } from '../../server/tips/weekly-tips.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// The weekly tips email: Monday at 8 in each member's zone, once a week whichever server sends it,
// never to a member who switched it off.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const owner = await t.asStaff('owner');
  for (const title of ['Call three past clients', 'Post one local market fact', 'Walk a new listing'])
    await t.app.services.resourceAuthoring.create(owner, {
      title,
      description: `${title} today.`,
      resource_type: 'daily_tip',
      tier_required: 'free',
      file_id: null,
      download_url: '',
    });
});
afterAll(() => t.close());

// Monday 30 November 2026, 8:30 in New York (the zone of members who have not set one).
const MONDAY_MORNING_IN_NEW_YORK = new Date('2026-11-30T13:30:00Z');
const mailer = createMailer({ publicUrl: 'http://localhost', nudge: () => {} });
const tipsTo = (email: string) =>
  t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.toAddress, email), eq(outboxMessages.kind, 'weekly-tips')));

describe('the weekly tips email', () => {
  it('goes once to each member whose Monday morning it is, even from two servers at once, and not to those who switched it off', async () => {
    const [reader, other, quiet, faraway] = [
      await t.loginAs('free'),
      await t.loginAs('gold'),
      await t.loginAs('bronze'),
      await t.loginAs('silver'),
    ];
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/account/weekly-tips',
      headers: quiet.headers,
      payload: { weekly_tips: false },
    });
    expect(off.statusCode).toBe(200);
    await t.app.inject({ method: 'PUT', url: '/api/account/time-zone', headers: faraway.headers, payload: { time_zone: 'Asia/Tokyo' } });

    await Promise.all([
      sendWeeklyTips(createDataAccess(t.db), mailer, MONDAY_MORNING_IN_NEW_YORK),
      sendWeeklyTips(createDataAccess(t.db), mailer, MONDAY_MORNING_IN_NEW_YORK),
    ]);
    await sendWeeklyTips(createDataAccess(t.db), mailer, new Date(MONDAY_MORNING_IN_NEW_YORK.getTime() + 20 * 60_000));

    for (const member of [reader, other]) {
      const mails = await tipsTo(member.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Your tips for the week');
      for (const title of ['Call three past clients', 'Post one local market fact', 'Walk a new listing'])
        expect(mails[0]!.text).toContain(title);
      expect(mails[0]!.unsubscribeUrl).not.toBeNull();
    }
    expect(await tipsTo(quiet.email)).toEqual([]);
    // 8:30 in New York is 22:30 in Tokyo: not Monday morning there.
    expect(await tipsTo(faraway.email)).toEqual([]);
  });

  it('reaches members whose browser named their zone by another of its names (Asia/Kolkata, US/Eastern)', async () => {
    const [kolkata, eastern] = [await t.loginAs('free'), await t.loginAs('free')];
    for (const [member, zone] of [
      [kolkata, 'Asia/Kolkata'],
      [eastern, 'US/Eastern'],
    ] as const) {
      const set = await t.app.inject({
        method: 'PUT',
        url: '/api/account/time-zone',
        headers: member.headers,
        payload: { time_zone: zone },
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    // Monday 7 December 2026: 8:10 in Kolkata (02:40 UTC), then 8:10 in New York (13:10 UTC).
    await sendWeeklyTips(createDataAccess(t.db), mailer, new Date('2026-12-07T02:40:00Z'));
    expect(await tipsTo(kolkata.email)).toHaveLength(1);
    expect(await tipsTo(eastern.email)).toEqual([]);
    await sendWeeklyTips(createDataAccess(t.db), mailer, new Date('2026-12-07T13:10:00Z'));
    expect(await tipsTo(eastern.email)).toHaveLength(1);
    expect(await tipsTo(kolkata.email)).toHaveLength(1);
  });

  it('keeps the switch to the member, and says what is wrong with a bad one', async () => {
    expect((await t.app.inject({ method: 'PUT', url: '/api/account/weekly-tips', payload: { weekly_tips: false } })).statusCode).toBe(401);
    const member = await t.loginAs('free');
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/account/weekly-tips',
      headers: member.headers,
      payload: { weekly_tips: 'no' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain('weekly_tips must be true or false');
  });
});
