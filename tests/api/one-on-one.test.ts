import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  monthTaken,
  NOT_A_FREE_SLOT,
  SLOT_TAKEN,
  TOO_LATE_TO_CHANGE,
  tooManyChanges,
  type Availability,
  type BookingView,
  type CoachBookingView,
  type FreeSlots,
  type MyOneOnOnes,
} from '../../common/one-on-one.contract.ts';
import { ONE_ON_ONE_CHANGES } from '../../common/limits.ts';
import { ONE_ON_ONE_GOLD_ONLY } from '../../common/policies.ts';
import { localDateOf } from '../../common/time-zones.ts';
import { members, oneOnOneBookings, oneOnOneChanges, outboxMessages } from '../../db/schema.ts';
import { forgetCountedChanges } from '../../server/accounts/data-retention.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { createTestApp, uniqueEmail, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Gold's monthly 1-on-1: coaches say when they are free; Gold members book one slot a month, move
// it or cancel it up to a day before; the database settles races.

let t: TestApp;
let coach: { authorization: string };
let coachId: string;
let coachEmail: string;

type Headers = { authorization: string } | Record<string, never>;
const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

/** Every day 09:00 to 17:00 UTC in hour slots, with a lunch break, no notice asked. */
const week: Availability = {
  time_zone: 'UTC',
  accepting: true,
  meeting_url: 'https://meet.example.com/coach-room',
  slot_minutes: 60,
  min_notice_hours: 0,
  windows: [0, 1, 2, 3, 4, 5, 6].flatMap((weekday) => [
    { weekday, starts: '09:00', ends: '17:00', kind: 'open' as const },
    { weekday, starts: '12:00', ends: '13:00', kind: 'break' as const },
  ]),
  days_off: [],
};

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const login = await t.loginAsStaff({ role: 'editor' });
  coach = { authorization: `Bearer ${login.token}` };
  coachId = login.id;
  coachEmail = login.email;
  const saved = await request('PUT', '/api/admin/one-on-one/availability', coach, week);
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(() => t.close());

const slotsFor = async (who: MemberLogin, from?: string) => {
  const answer = await request('GET', `/api/one-on-one/slots?coach=${coachId}${from ? `&from=${from}` : ''}`, who.headers);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as FreeSlots;
};
const allStarts = (slots: FreeSlots) => slots.days.flatMap((day) => day.starts);
const book = (who: MemberLogin, startsAt: string, topic = 'Listing presentations') =>
  request('POST', '/api/one-on-one/bookings', who.headers, { coach_id: coachId, starts_at: startsAt, topic });
const mailsTo = (email: string, kind: string) =>
  t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.toAddress, email), like(outboxMessages.kind, kind)));
/** Free starts at least `days` away, two on the same day (so in the same month). */
async function laterStarts(who: MemberLogin, days: number) {
  const from = localDateOf(new Date(Date.now() + days * 24 * 60 * 60 * 1000), 'America/New_York');
  const slots = await slotsFor(who, from);
  const day = slots.days.find((each) => each.starts.length >= 3)!;
  return day.starts;
}

describe('who may book', () => {
  it('keeps 1-on-1s to Gold members, through the API too, and the coaches’ pages to staff', async () => {
    for (const tier of ['free', 'bronze', 'silver'] as const) {
      const member = await t.loginAs(tier);
      for (const answer of [
        await request('GET', '/api/one-on-one/coaches', member.headers),
        await request('GET', `/api/one-on-one/slots?coach=${coachId}`, member.headers),
        await request('POST', '/api/one-on-one/bookings', member.headers, {
          coach_id: coachId,
          starts_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        }),
      ]) {
        expect(answer.statusCode, tier).toBe(403);
        expect(answer.json().detail).toBe(ONE_ON_ONE_GOLD_ONLY);
      }
      expect((await request('GET', '/api/admin/one-on-one/bookings', member.headers)).statusCode).toBe(403);
    }
    expect((await request('GET', '/api/one-on-one/bookings')).statusCode).toBe(401);
    expect(await t.db.select().from(oneOnOneBookings)).toEqual([]);
  });

  it('lists the coaches who take 1-on-1s to a Gold member', async () => {
    const gold = await t.loginAs('gold');
    const coaches = (await request('GET', '/api/one-on-one/coaches', gold.headers)).json() as { id: string }[];
    expect(coaches.map((each) => each.id)).toContain(coachId);
  });

  it('refuses a week that does not make sense, with what is wrong', async () => {
    const answer = await request('PUT', '/api/admin/one-on-one/availability', coach, {
      ...week,
      windows: [{ weekday: 1, starts: '17:00', ends: '09:00', kind: 'open' }],
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().detail).toContain('A window ends after it starts');
  });
});

describe('free slots', () => {
  it('offers the coach’s open hours less breaks and days off, in hour slots', async () => {
    const gold = await t.loginAs('gold');
    const starts = allStarts(await slotsFor(gold));
    expect(starts.length).toBeGreaterThan(0);
    for (const start of starts) {
      const hour = new Date(start).getUTCHours();
      expect(hour >= 9 && hour < 17 && hour !== 12, start).toBe(true);
      expect(new Date(start).getTime()).toBeGreaterThan(Date.now());
    }
    // A day off takes that day's slots away.
    const dayOff = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    await request('PUT', '/api/admin/one-on-one/availability', coach, { ...week, days_off: [dayOff] });
    const after = allStarts(await slotsFor(gold));
    expect(after.some((start) => start.startsWith(dayOff))).toBe(false);
    await request('PUT', '/api/admin/one-on-one/availability', coach, week);
  });

  it('refuses a time that is not one of the slots', async () => {
    const gold = await t.loginAs('gold');
    const [start] = await laterStarts(gold, 3);
    const offSlot = new Date(new Date(start!).getTime() + 15 * 60_000).toISOString();
    const answer = await book(gold, offSlot);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().detail).toBe(NOT_A_FREE_SLOT);
  });
});

describe('booking, moving and cancelling', () => {
  it('books one 1-on-1 a month, mails both with a calendar file, and shows it to the coach with the member’s progress and goals', async () => {
    const gold = await t.loginAs('gold');
    const goal = await request('POST', '/api/goals', gold.headers, {
      kind: 'count',
      title: 'Calls',
      unit: 'calls',
      target: 20,
      period: 'week',
    });
    expect(goal.statusCode, goal.body).toBe(201);
    expect((await request('POST', `/api/goals/${goal.json().id}/progress`, gold.headers, { amount: 5 })).statusCode).toBe(200);
    const [first, second] = await laterStarts(gold, 3);
    const booked = await book(gold, first!, 'Pricing conversations');
    expect(booked.statusCode, booked.body).toBe(201);
    expect(booked.json()).toMatchObject({ starts_at: first, meeting_url: week.meeting_url, can_change: true });

    const [confirmation] = await mailsTo(gold.email, 'one-on-one-booked');
    expect(confirmation?.subject).toMatch(/^Booked: your 1-on-1 with /);
    expect(confirmation?.calendar).toContain('BEGIN:VEVENT');
    expect(await t.db.select().from(outboxMessages).where(eq(outboxMessages.kind, 'one-on-one-booked-coach'))).not.toHaveLength(0);

    const again = await book(gold, second!);
    expect(again.statusCode).toBe(409);
    const month = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'America/New_York' }).format(
      new Date(first!),
    );
    expect(again.json().detail).toBe(monthTaken(month));

    const mine = (await request('GET', '/api/one-on-one/bookings', gold.headers)).json() as MyOneOnOnes;
    expect(mine.upcoming.map((each) => each.starts_at)).toEqual([first]);

    // The booking is in the member's own data.
    const exported = (await request('GET', '/api/account/export', gold.headers)).json();
    expect(exported.one_on_ones).toEqual([
      expect.objectContaining({ starts_at: first, topic: 'Pricing conversations', cancelled_at: null }),
    ]);

    const list = (await request('GET', '/api/admin/one-on-one/bookings', coach)).json() as CoachBookingView[];
    expect(list.find((each) => each.member.email === gold.email)).toMatchObject({
      topic: 'Pricing conversations',
      member: { tier: 'gold' },
      progress: { courses_enrolled: 0, lessons_completed: 0 },
      goals: [expect.objectContaining({ title: 'Calls', unit: 'calls', target: 20, done: 5, period_label: 'this week' })],
    });
  });

  it('gives a slot two members ask for at once to one of them; the other gets a clear 409', async () => {
    const [one, two] = [await t.loginAs('gold'), await t.loginAs('gold')];
    const [start] = await laterStarts(one, 10);
    const answers = await Promise.all([book(one, start!), book(two, start!)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().detail).toBe(SLOT_TAKEN);
    const held = await t.db
      .select()
      .from(oneOnOneBookings)
      .where(eq(oneOnOneBookings.startsAt, new Date(start!)));
    expect(held).toHaveLength(1);
    // The database itself refuses an overlap, whatever a process checked first.
    const overlapping = { ...held[0]!, id: undefined, memberId: two.memberId, month: '2099-01-01' };
    overlapping.startsAt = new Date(overlapping.startsAt.getTime() + 30 * 60_000);
    overlapping.endsAt = new Date(overlapping.endsAt.getTime() + 30 * 60_000);
    await expect(t.db.insert(oneOnOneBookings).values(overlapping)).rejects.toThrow();
  });

  it('gives a member who asks for two slots of one month at once only one of them', async () => {
    const gold = await t.loginAs('gold');
    const [first, , third] = await laterStarts(gold, 17);
    const answers = await Promise.all([book(gold, first!), book(gold, third!)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await t.db.select().from(oneOnOneBookings).where(eq(oneOnOneBookings.memberId, gold.memberId))).toHaveLength(1);
  });

  it('moves and cancels a booking, which gives the month’s 1-on-1 back; no one else may touch it', async () => {
    const gold = await t.loginAs('gold');
    const other = await t.loginAs('gold');
    const [first, second, third] = await laterStarts(gold, 24);
    const booking = (await book(gold, first!)).json() as BookingView;

    expect(
      (await request('POST', `/api/one-on-one/bookings/${booking.id}/reschedule`, other.headers, { starts_at: second })).statusCode,
    ).toBe(404);
    expect((await request('DELETE', `/api/one-on-one/bookings/${booking.id}`, other.headers)).statusCode).toBe(404);

    const moved = await request('POST', `/api/one-on-one/bookings/${booking.id}/reschedule`, gold.headers, { starts_at: second });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: booking.id, starts_at: second });
    expect(await mailsTo(gold.email, 'one-on-one-moved')).toHaveLength(1);
    // The old time is free again.
    expect(allStarts(await slotsFor(other, first!.slice(0, 10)))).toContain(first);

    const ics = await request('GET', `/api/one-on-one/bookings/${booking.id}/calendar.ics`, gold.headers);
    expect(ics.headers['content-type']).toContain('text/calendar');
    expect(ics.body).toContain('SEQUENCE:1');

    expect((await request('DELETE', `/api/one-on-one/bookings/${booking.id}`, gold.headers)).statusCode).toBe(200);
    expect(await mailsTo(gold.email, 'one-on-one-cancelled')).toHaveLength(1);
    expect((await book(gold, third!)).statusCode).toBe(201);
  });

  it('refuses to move or cancel within 24 hours of the start', async () => {
    const gold = await t.loginAs('gold');
    const soon = allStarts(await slotsFor(gold)).find((start) => new Date(start).getTime() - Date.now() < 23 * 3_600_000);
    expect(soon, 'a slot within the next day').toBeDefined();
    const booking = (await book(gold, soon!)).json() as BookingView;
    expect(booking.can_change).toBe(false);
    const cancelled = await request('DELETE', `/api/one-on-one/bookings/${booking.id}`, gold.headers);
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().detail).toBe(TOO_LATE_TO_CHANGE);
  });
});

describe('changes mailed to the coach', () => {
  const { max } = ONE_ON_ONE_CHANGES;
  const moveTo = (who: MemberLogin, bookingId: string, startsAt: string) =>
    request('POST', `/api/one-on-one/bookings/${bookingId}/reschedule`, who.headers, { starts_at: startsAt });
  const coachMails = async () => (await mailsTo(coachEmail, 'one-on-one-%-coach')).length;

  it(`stops a member after ${max} bookings and moves in a day, with a 429 that says why; the coach is mailed no more`, async () => {
    const gold = await t.loginAs('gold');
    const [first, second] = await laterStarts(gold, 31);
    const booking = (await book(gold, first!)).json() as BookingView;
    for (let change = 2; change <= max; change++) {
      const moved = await moveTo(gold, booking.id, change % 2 === 0 ? second! : first!);
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const kept = max % 2 === 0 ? second : first;
    const mailed = await coachMails();

    for (const startsAt of [first!, second!]) {
      const refused = await moveTo(gold, booking.id, startsAt);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toBe(tooManyChanges(24));
    }
    const mine = (await request('GET', '/api/one-on-one/bookings', gold.headers)).json() as MyOneOnOnes;
    expect(mine.upcoming.map((each) => each.starts_at)).toEqual([kept]);
    expect(await coachMails()).toBe(mailed);
    expect(await mailsTo(gold.email, 'one-on-one-%')).toHaveLength(max);
    // A new address is no new allowance: the changes are counted by the member, not where they are mailed.
    await t.db
      .update(members)
      .set({ email: uniqueEmail('renamed-gold') })
      .where(eq(members.email, gold.email));
    expect((await moveTo(gold, booking.id, first!)).statusCode).toBe(429);
    expect(await coachMails()).toBe(mailed);

    // Giving the time back is always possible; booking again is a change like the others.
    expect((await request('DELETE', `/api/one-on-one/bookings/${booking.id}`, gold.headers)).statusCode).toBe(200);
    expect((await book(gold, first!)).statusCode).toBe(429);
    // The limit is the member's own: another Gold member books as usual.
    const other = await t.loginAs('gold');
    expect((await book(other, first!)).statusCode).toBe(201);
  });

  it('forgets, in the daily retention, the changes a day has passed over, and keeps the day’s', async () => {
    const gold = await t.loginAs('gold');
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await t.db.insert(oneOnOneChanges).values([
      { memberId: gold.memberId, kind: 'booked', createdAt: hoursAgo(30) },
      { memberId: gold.memberId, kind: 'moved', createdAt: hoursAgo(2) },
    ]);
    expect(await forgetCountedChanges(createDataAccess(t.db))).toBeGreaterThanOrEqual(1);
    const left = await t.db.select({ kind: oneOnOneChanges.kind }).from(oneOnOneChanges).where(eq(oneOnOneChanges.memberId, gold.memberId));
    expect(left).toEqual([{ kind: 'moved' }]);
  });

  it('counts changes sent at the same moment one by one', async () => {
    const gold = await t.loginAs('gold');
    const [first, second] = await laterStarts(gold, 38);
    const booking = (await book(gold, first!)).json() as BookingView;
    const answers = await Promise.all(
      Array.from({ length: 2 * max }, (_, index) => moveTo(gold, booking.id, index % 2 === 0 ? second! : first!)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(max - 1);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
    expect(await mailsTo(gold.email, 'one-on-one-%')).toHaveLength(max);
  });
});
