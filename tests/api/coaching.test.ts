import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_NOT_OPEN, NOT_FULL, SESSION_FULL, type SessionView, type StaffSessionView } from '../../common/coaching.contract.ts';
import { COACHING } from '../../common/limits.ts';
import { localTimeOf } from '../../common/time-zones.ts';
import { coachingAttendance, coachingSeries, coachingSessions, members, outboxMessages } from '../../db/schema.ts';
import { sendCoachingReminders } from '../../server/coaching/coaching-jobs.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let editor: { authorization: string };
let editorId: string;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const login = await t.loginAsStaff({ role: 'editor' });
  editor = { authorization: `Bearer ${login.token}` };
  editorId = login.id;
});
afterAll(() => t.close());

type Headers = { authorization: string } | Record<string, never>;
const request = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

const MINUTE = 60_000;
/** The date and time fields of an instant, as staff type them, in UTC. */
function inUtc(instant: Date) {
  const local = localTimeOf(instant, 'UTC');
  const two = (value: number) => String(value).padStart(2, '0');
  return { date: `${local.year}-${two(local.month)}-${two(local.day)}`, time: `${two(local.hour)}:${two(local.minute)}`, time_zone: 'UTC' };
}
let numbered = 0;
/** A session scheduled by the editor, starting `minutesAhead` from now. */
async function schedule(
  minutesAhead: number,
  details: Partial<{
    min_tier: string;
    capacity: number;
    weekly: boolean;
    time_zone: string;
    kind: string;
    address: string;
    join_url: string;
  }> = {},
) {
  const start = inUtc(new Date(Date.now() + minutesAhead * MINUTE));
  const answer = await request('POST', '/api/admin/coaching/series', editor, {
    title: `Live session ${++numbered}`,
    description: 'Bring your questions.',
    host_staff_id: editorId,
    ...start,
    duration_minutes: 60,
    min_tier: 'silver',
    capacity: 50,
    join_url: 'https://meet.example.com/live-room',
    ...details,
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json() as StaffSessionView;
}
const sessionAs = async (who: MemberLogin, id: string) =>
  (await request('GET', `/api/coaching/sessions/${id}`, who.headers)).json() as SessionView;
const mailsTo = (email: string, kind: string) =>
  t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.toAddress, email), like(outboxMessages.kind, kind)));

describe('who may see, RSVP and join', () => {
  it('shows a Silver session to Free and Bronze members only locked, and refuses them every action', async () => {
    const session = await schedule(3 * 24 * 60);
    for (const tier of ['free', 'bronze'] as const) {
      const member = await t.loginAs(tier);
      const list = (await request('GET', '/api/coaching/sessions', member.headers)).json() as SessionView[];
      expect(list.find((each) => each.id === session.id)).toMatchObject({ locked: true, join_url: null });
      for (const refused of [
        await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, member.headers),
        await request('GET', `/api/coaching/sessions/${session.id}/join`, member.headers),
        await request('GET', `/api/coaching/sessions/${session.id}/calendar.ics`, member.headers),
      ]) {
        expect(refused.statusCode).toBe(403);
        expect(refused.json().detail).toBe('This session is for Silver members and above. Upgrade your plan to join.');
      }
    }
    expect((await request('GET', '/api/coaching/sessions')).statusCode).toBe(401);
  });

  it('lets a Silver member RSVP once, cancel, and add the session to their calendar', async () => {
    const session = await schedule(2 * 24 * 60);
    const silver = await t.loginAs('silver');
    const first = await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ rsvped: true, locked: false, seats_left: 49 });
    expect((await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers)).json().seats_left).toBe(49);
    const ics = await request('GET', `/api/coaching/sessions/${session.id}/calendar.ics`, silver.headers);
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(ics.body).toContain(`SUMMARY:${session.title}`);
    expect(ics.body).toContain(`DTSTART:${session.starts_at.replace(/[-:]/g, '').slice(0, 15)}Z`);
    expect(ics.body).not.toContain('meet.example.com');
    const cancelled = await request('DELETE', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers);
    expect(cancelled.json()).toMatchObject({ rsvped: false, seats_left: 50 });
  });

  it('keeps a Gold session from Silver members, through the API too', async () => {
    const session = await schedule(24 * 60, { min_tier: 'gold' });
    const silver = await t.loginAs('silver');
    expect((await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers)).statusCode).toBe(403);
    const gold = await t.loginAs('gold');
    expect((await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, gold.headers)).statusCode).toBe(201);
  });

  it(`shows the join link from ${COACHING.joinOpensMinutesBefore} minutes before the start, and records who joins`, async () => {
    const later = await schedule(2 * 60);
    const soon = await schedule(COACHING.joinOpensMinutesBefore - 5);
    const silver = await t.loginAs('silver');
    // The join link is for members holding a place (tests/api/coaching-security.test.ts).
    for (const session of [later, soon]) await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers);
    expect((await sessionAs(silver, later.id)).join_url).toBeNull();
    const early = await request('GET', `/api/coaching/sessions/${later.id}/join`, silver.headers);
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toBe(JOIN_NOT_OPEN);

    expect((await sessionAs(silver, soon.id)).join_url).toBe(`/api/coaching/sessions/${soon.id}/join`);
    const joined = await request('GET', `/api/coaching/sessions/${soon.id}/join`, silver.headers);
    expect(joined.statusCode).toBe(303);
    expect(joined.headers.location).toBe('https://meet.example.com/live-room');
    const attendees = (await request('GET', `/api/admin/coaching/sessions/${soon.id}`, editor)).json();
    expect(attendees.attended_count).toBe(1);
  });

  it('refuses the join link inside the window to a tier below the session’s, and records no attendance', async () => {
    const silverSession = await schedule(COACHING.joinOpensMinutesBefore - 5);
    const goldSession = await schedule(COACHING.joinOpensMinutesBefore - 5, { min_tier: 'gold' });
    const tooLow = [
      ['free', silverSession, 'Silver'],
      ['bronze', silverSession, 'Silver'],
      ['silver', goldSession, 'Gold'],
    ] as const;
    for (const [tier, session, label] of tooLow) {
      const member = await t.loginAs(tier);
      expect(await sessionAs(member, session.id), tier).toMatchObject({ locked: true, join_url: null });
      const refused = await request('GET', `/api/coaching/sessions/${session.id}/join`, member.headers);
      expect(refused.statusCode, tier).toBe(403);
      expect(refused.headers.location).toBeUndefined();
      expect(refused.json().detail).toBe(`This session is for ${label} members and above. Upgrade your plan to join.`);
    }
    expect((await request('GET', `/api/coaching/sessions/${silverSession.id}/join`)).statusCode).toBe(401);
    for (const session of [silverSession, goldSession]) {
      expect(await t.db.select().from(coachingAttendance).where(eq(coachingAttendance.sessionId, session.id))).toHaveLength(0);
      expect((await request('GET', `/api/admin/coaching/sessions/${session.id}`, editor)).json().attended_count).toBe(0);
    }
  });

  it('gives the join link inside the window to a member above the session’s tier, recording them once; refuses it before and after', async () => {
    const session = await schedule(COACHING.joinOpensMinutesBefore - 5);
    const gold = await t.loginAs('gold');
    await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, gold.headers);
    expect(await sessionAs(gold, session.id)).toMatchObject({ locked: false, join_url: `/api/coaching/sessions/${session.id}/join` });
    for (let time = 0; time < 2; time++) {
      const joined = await request('GET', `/api/coaching/sessions/${session.id}/join`, gold.headers);
      expect(joined.statusCode).toBe(303);
      expect(joined.headers.location).toBe('https://meet.example.com/live-room');
    }
    const attendance = await t.db.select().from(coachingAttendance).where(eq(coachingAttendance.sessionId, session.id));
    expect(attendance.map((row) => row.memberId)).toEqual([gold.memberId]);
    const attendees = (await request('GET', `/api/admin/coaching/sessions/${session.id}/attendees`, editor)).json();
    expect(attendees).toEqual([expect.objectContaining({ email: gold.email, attended: true })]);

    // Before the window: a few minutes too early.
    const early = await schedule(COACHING.joinOpensMinutesBefore + 5);
    expect((await sessionAs(gold, early.id)).join_url).toBeNull();
    const tooEarly = await request('GET', `/api/coaching/sessions/${early.id}/join`, gold.headers);
    expect(tooEarly.statusCode).toBe(409);
    expect(tooEarly.json().detail).toBe(JOIN_NOT_OPEN);

    // After the end: the session started two hours ago and lasted one.
    await t.db
      .update(coachingSessions)
      .set({ startsAt: new Date(Date.now() - 2 * 60 * MINUTE) })
      .where(eq(coachingSessions.id, session.id));
    expect((await sessionAs(gold, session.id)).join_url).toBeNull();
    const over = await request('GET', `/api/coaching/sessions/${session.id}/join`, gold.headers);
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toBe('This session has ended. Its recording appears in the library once staff add it.');
    expect(await t.db.select().from(coachingAttendance).where(eq(coachingAttendance.sessionId, early.id))).toHaveLength(0);
  });

  it('gives the last place to one of two members who ask at the same moment; the other gets a clear 409', async () => {
    const session = await schedule(24 * 60, { capacity: 1 });
    const [first, second] = [await t.loginAs('silver'), await t.loginAs('gold')];
    const answers = await Promise.all(
      [first, second].map((who) => request('POST', `/api/coaching/sessions/${session.id}/rsvp`, who.headers)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().detail).toBe(SESSION_FULL);
    expect((await request('GET', `/api/admin/coaching/sessions/${session.id}`, editor)).json().rsvp_count).toBe(1);
  });
});

describe('Gold events and waiting lists', () => {
  const HALL = 'Riverside Conference Hall, 200 Main Street, Austin';
  const goldEvent = (capacity: number) => schedule(5 * 24 * 60, { kind: 'event', min_tier: 'gold', capacity, address: HALL, join_url: '' });

  it('shows an event in person to Gold members with its address; Silver members see it locked and are refused through the API', async () => {
    const event = await goldEvent(20);
    const silver = await t.loginAs('silver');
    expect(await sessionAs(silver, event.id)).toMatchObject({ kind: 'event', locked: true, address: null, join_url: null });
    for (const [method, path] of [
      ['POST', 'rsvp'],
      ['POST', 'waitlist'],
      ['GET', 'calendar.ics'],
    ] as const) {
      const refused = await request(method, `/api/coaching/sessions/${event.id}/${path}`, silver.headers);
      expect(refused.statusCode, path).toBe(403);
      expect(refused.json().detail).toBe('This session is for Gold members and above. Upgrade your plan to join.');
    }
    const gold = await t.loginAs('gold');
    expect(await sessionAs(gold, event.id)).toMatchObject({ kind: 'event', locked: false, address: HALL, join_url: null });
    expect((await request('POST', `/api/coaching/sessions/${event.id}/rsvp`, gold.headers)).statusCode).toBe(201);
    const ics = await request('GET', `/api/coaching/sessions/${event.id}/calendar.ics`, gold.headers);
    expect(ics.body).toContain('LOCATION:Riverside Conference Hall\\, 200 Main Street\\, Austin');
    const join = await request('GET', `/api/coaching/sessions/${event.id}/join`, gold.headers);
    expect(join.statusCode).toBe(409);
    expect(join.json().detail).toBe(`This event takes place in person, at ${HALL}.`);
  });

  it('refuses the waiting list to visitors and to a bad session id', async () => {
    const event = await goldEvent(1);
    expect((await request('POST', `/api/coaching/sessions/${event.id}/waitlist`)).statusCode).toBe(401);
    expect((await request('DELETE', `/api/coaching/sessions/${event.id}/waitlist`)).statusCode).toBe(401);
    const gold = await t.loginAs('gold');
    const badId = await request('POST', '/api/coaching/sessions/not-an-id/waitlist', gold.headers);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().detail).toContain('Session must be a valid id');
  });

  it('refuses a session in person, and an event with neither a join link nor an address', async () => {
    const start = inUtc(new Date(Date.now() + 24 * 60 * MINUTE));
    const base = { title: 'Nowhere', host_staff_id: editorId, ...start, duration_minutes: 60, min_tier: 'gold', capacity: 10 };
    const inPerson = await request('POST', '/api/admin/coaching/series', editor, { ...base, address: HALL, join_url: '' });
    expect(inPerson.statusCode).toBe(400);
    expect(inPerson.body).toContain('Only events take place in person: leave the address empty');
    const nowhere = await request('POST', '/api/admin/coaching/series', editor, { ...base, kind: 'event' });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.body).toContain('Give a join link (the video meeting address), or, for an event in person, its address');
  });

  it('seats two of three Gold members who ask at once; the third waits, and takes the first place given back, by email', async () => {
    const event = await goldEvent(2);
    const trio = [await t.loginAs('gold'), await t.loginAs('gold'), await t.loginAs('gold')];
    const answers = await Promise.all(trio.map((who) => request('POST', `/api/coaching/sessions/${event.id}/rsvp`, who.headers)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 409]);
    const left = trio[answers.findIndex((answer) => answer.statusCode === 409)]!;
    const seated = trio.filter((who) => who !== left);

    const early = await t.loginAs('gold');
    expect((await request('POST', `/api/coaching/sessions/${event.id}/waitlist`, early.headers)).json()).toMatchObject({
      waitlisted: true,
    });
    expect((await request('POST', `/api/coaching/sessions/${event.id}/waitlist`, left.headers)).json()).toMatchObject({ waitlisted: true });
    // The first waiting has dropped to Silver since: passed over, keeping their turn.
    await t.db.update(members).set({ membershipTier: 'silver' }).where(eq(members.id, early.memberId));
    expect((await request('GET', `/api/admin/coaching/sessions/${event.id}`, editor)).json()).toMatchObject({
      rsvp_count: 2,
      waitlist_count: 2,
    });

    expect((await request('DELETE', `/api/coaching/sessions/${event.id}/rsvp`, seated[0]!.headers)).statusCode).toBe(200);
    expect(await sessionAs(left, event.id)).toMatchObject({ rsvped: true, waitlisted: false, seats_left: 0 });
    expect(await mailsTo(left.email, 'coaching-place-opened')).toHaveLength(1);
    expect(await mailsTo(early.email, 'coaching-place-opened')).toHaveLength(0);
    expect((await request('GET', `/api/admin/coaching/sessions/${event.id}`, editor)).json()).toMatchObject({
      rsvp_count: 2,
      waitlist_count: 1,
    });
  });

  it('moves the waiting list up when staff add places, and refuses the list while places are left', async () => {
    const event = await goldEvent(1);
    const [seated, waiting] = [await t.loginAs('gold'), await t.loginAs('gold')];
    const notFull = await request('POST', `/api/coaching/sessions/${event.id}/waitlist`, waiting.headers);
    expect(notFull.statusCode).toBe(409);
    expect(notFull.json().detail).toBe(NOT_FULL);
    await request('POST', `/api/coaching/sessions/${event.id}/rsvp`, seated.headers);
    await request('POST', `/api/coaching/sessions/${event.id}/waitlist`, waiting.headers);
    expect((await request('PATCH', `/api/admin/coaching/series/${event.series_id}`, editor, { capacity: 2 })).statusCode).toBe(200);
    // What the change left out stays as it was.
    expect(await sessionAs(waiting, event.id)).toMatchObject({ rsvped: true, waitlisted: false, description: 'Bring your questions.' });
    expect(await mailsTo(waiting.email, 'coaching-place-opened')).toHaveLength(1);
  });
});

describe('staff schedule, move and cancel', () => {
  it('lets editors and owners schedule, and refuses members and visitors', async () => {
    const gold = await t.loginAs('gold');
    expect((await request('GET', '/api/admin/coaching/sessions', gold.headers)).statusCode).toBe(403);
    expect((await request('GET', '/api/admin/coaching/sessions')).statusCode).toBe(401);
    const past = await request('POST', '/api/admin/coaching/series', editor, {
      title: 'Yesterday',
      host_staff_id: editorId,
      ...inUtc(new Date(Date.now() - 24 * 60 * MINUTE)),
      duration_minutes: 60,
      min_tier: 'silver',
      capacity: 5,
      join_url: 'https://meet.example.com/x',
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().detail).toBe('Choose a start in the future.');
  });

  it('lets an owner schedule, move and cancel as an editor does; members of every tier and visitors cannot', async () => {
    const login = await t.loginAsStaff({ role: 'owner' });
    const owner = { authorization: `Bearer ${login.token}` };
    const details = {
      title: 'Owner’s pricing clinic',
      description: 'How to price a listing.',
      host_staff_id: login.id,
      ...inUtc(new Date(Date.now() + 2 * 24 * 60 * MINUTE)),
      duration_minutes: 45,
      min_tier: 'silver',
      capacity: 20,
      join_url: 'https://meet.example.com/owner-room',
    };
    const made = await request('POST', '/api/admin/coaching/series', owner, details);
    expect(made.statusCode, made.body).toBe(201);
    const session = made.json() as StaffSessionView;
    expect(session).toMatchObject({ title: details.title, host_staff_id: login.id, min_tier: 'silver', capacity: 20 });
    const listed = (await request('GET', '/api/admin/coaching/sessions', owner)).json() as StaffSessionView[];
    expect(listed.map((each) => each.id)).toContain(session.id);
    const moveTo = inUtc(new Date(Date.now() + 3 * 24 * 60 * MINUTE));

    for (const tier of ['free', 'bronze', 'silver', 'gold'] as const) {
      const member = await t.loginAs(tier);
      for (const refused of [
        await request('POST', '/api/admin/coaching/series', member.headers, { ...details, title: `Scheduled by ${tier}` }),
        await request('PATCH', `/api/admin/coaching/series/${session.series_id}`, member.headers, { capacity: 1 }),
        await request('POST', `/api/admin/coaching/sessions/${session.id}/move`, member.headers, moveTo),
        await request('POST', `/api/admin/coaching/sessions/${session.id}/cancel`, member.headers),
      ]) {
        expect(refused.statusCode, tier).toBe(403);
        expect(refused.json().detail).toBe('This needs an administrator account.');
      }
    }
    for (const refused of [
      await request('POST', '/api/admin/coaching/series', {}, { ...details, title: 'Scheduled by a visitor' }),
      await request('PATCH', `/api/admin/coaching/series/${session.series_id}`, {}, { capacity: 1 }),
      await request('POST', `/api/admin/coaching/sessions/${session.id}/move`, {}, moveTo),
      await request('POST', `/api/admin/coaching/sessions/${session.id}/cancel`),
    ])
      expect(refused.statusCode).toBe(401);
    expect(await t.db.select().from(coachingSeries).where(like(coachingSeries.title, 'Scheduled by %'))).toHaveLength(0);
    expect((await request('GET', `/api/admin/coaching/sessions/${session.id}`, owner)).json()).toMatchObject({
      capacity: 20,
      starts_at: session.starts_at,
      cancelled: false,
    });

    const moved = await request('POST', `/api/admin/coaching/sessions/${session.id}/move`, owner, moveTo);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().starts_at).not.toBe(session.starts_at);
    const cancelled = await request('POST', `/api/admin/coaching/sessions/${session.id}/cancel`, owner);
    expect(cancelled.json()).toMatchObject({ cancelled: true });
  });

  it('plans a weekly series weeks ahead, every one at the same local time', async () => {
    const first = await schedule(24 * 60, { weekly: true, time_zone: 'America/Chicago' });
    const rows = await t.db.select().from(coachingSessions).where(eq(coachingSessions.seriesId, first.series_id));
    // The first is a day away; the last planned is within the horizon of weeksAhead weeks from now.
    expect(rows).toHaveLength(COACHING.weeksAhead);
    const clock = (instant: Date) => {
      const local = localTimeOf(instant, 'America/Chicago');
      return `${local.hour}:${local.minute}`;
    };
    expect(new Set(rows.map((row) => clock(row.startsAt))).size).toBe(1);
  });

  it('mails a new time and a cancellation to those who RSVP’d, once each', async () => {
    const session = await schedule(3 * 24 * 60);
    const silver = await t.loginAs('silver');
    await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers);
    const moved = await request(
      'POST',
      `/api/admin/coaching/sessions/${session.id}/move`,
      editor,
      inUtc(new Date(Date.now() + 4 * 24 * 60 * MINUTE)),
    );
    expect(moved.statusCode).toBe(200);
    expect(await mailsTo(silver.email, 'coaching-moved')).toHaveLength(1);
    expect((await request('POST', `/api/admin/coaching/sessions/${session.id}/cancel`, editor)).json().cancelled).toBe(true);
    const [cancelled] = await mailsTo(silver.email, 'coaching-cancelled');
    expect(cancelled?.subject).toBe(`Cancelled: ${session.title}`);
    expect((await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers)).statusCode).toBe(409);
  });

  it('mails a change of title or join link to those who RSVP’d, once per session; a change of places alone mails nobody', async () => {
    const event = await schedule(5 * 24 * 60, {
      kind: 'event',
      min_tier: 'gold',
      capacity: 1,
      address: 'Lakeside Hall, 10 Shore Road, Austin',
      join_url: '',
    });
    const [seated, waiting] = [await t.loginAs('gold'), await t.loginAs('gold')];
    await request('POST', `/api/coaching/sessions/${event.id}/rsvp`, seated.headers);
    await request('POST', `/api/coaching/sessions/${event.id}/waitlist`, waiting.headers);
    expect(
      (await request('PATCH', `/api/admin/coaching/series/${event.series_id}`, editor, { description: 'New notes.' })).statusCode,
    ).toBe(200);
    expect(await mailsTo(seated.email, 'coaching-changed')).toHaveLength(0);
    const renamed = await request('PATCH', `/api/admin/coaching/series/${event.series_id}`, editor, { title: 'Gold Masterclass, renamed' });
    expect(renamed.statusCode).toBe(200);
    const [changed] = await mailsTo(seated.email, 'coaching-changed');
    expect(changed?.subject).toBe('Updated: Gold Masterclass, renamed');
    expect(await mailsTo(waiting.email, 'coaching-changed')).toHaveLength(0);

    // A cancellation reaches the waiting list too.
    expect((await request('POST', `/api/admin/coaching/sessions/${event.id}/cancel`, editor)).statusCode).toBe(200);
    expect(await mailsTo(seated.email, 'coaching-cancelled')).toHaveLength(1);
    expect(await mailsTo(waiting.email, 'coaching-cancelled')).toHaveLength(1);
  });
});

describe('reminders', () => {
  it('sends the day-before reminder once, even when two servers run the reminders at the same moment', async () => {
    const session = await schedule(24 * 60 - 20);
    const members = [await t.loginAs('silver'), await t.loginAs('gold')];
    for (const member of members) await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, member.headers);
    const mailer = createMailer({ publicUrl: 'http://localhost:3000', nudge: () => {} });
    // Two runs at once, each with its own data access (on PostgreSQL, its own connections), as two servers would.
    await Promise.all([sendCoachingReminders(createDataAccess(t.db), mailer), sendCoachingReminders(createDataAccess(t.db), mailer)]);
    await sendCoachingReminders(createDataAccess(t.db), mailer);
    for (const member of members) {
      const reminders = await mailsTo(member.email, 'coaching-reminder-%');
      expect(reminders.map((mail) => mail.kind)).toEqual(['coaching-reminder-day']);
      expect(reminders[0]!.subject).toBe(`Tomorrow: ${session.title}`);
    }
  });
  it('sends the hour-before reminder once, even when two servers run the reminders at the same moment', async () => {
    // Forty minutes ahead: the hour reminder is due; the day reminder's moment passed long ago.
    const session = await schedule(60 - 20);
    const later = await schedule(3 * 60);
    const members = [await t.loginAs('silver'), await t.loginAs('gold')];
    for (const member of members) {
      await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, member.headers);
      await request('POST', `/api/coaching/sessions/${later.id}/rsvp`, member.headers);
    }
    const mailer = createMailer({ publicUrl: 'http://localhost:3000', nudge: () => {} });
    await Promise.all([sendCoachingReminders(createDataAccess(t.db), mailer), sendCoachingReminders(createDataAccess(t.db), mailer)]);
    await sendCoachingReminders(createDataAccess(t.db), mailer);
    for (const member of members) {
      const reminders = await mailsTo(member.email, 'coaching-reminder-%');
      // One, for the session in forty minutes; the one in three hours is not due yet.
      expect(reminders.map((mail) => mail.kind)).toEqual(['coaching-reminder-hour']);
      expect(reminders[0]!.subject).toBe(`In an hour: ${session.title}`);
    }
  });

  it('sends a member the day-before and then the hour-before reminder of one session, each once', async () => {
    const session = await schedule(24 * 60 - 20);
    const silver = await t.loginAs('silver');
    await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers);
    const mailer = createMailer({ publicUrl: 'http://localhost:3000', nudge: () => {} });
    const startsAt = new Date(session.starts_at).getTime();
    // The job's clock: now, then fifty minutes before the start (twice: the second run finds nothing new).
    await sendCoachingReminders(createDataAccess(t.db), mailer);
    expect((await mailsTo(silver.email, 'coaching-reminder-%')).map((mail) => mail.kind)).toEqual(['coaching-reminder-day']);
    const hourBefore = new Date(startsAt - 50 * MINUTE);
    await Promise.all([
      sendCoachingReminders(createDataAccess(t.db), mailer, hourBefore),
      sendCoachingReminders(createDataAccess(t.db), mailer, hourBefore),
    ]);
    await sendCoachingReminders(createDataAccess(t.db), mailer, new Date(startsAt - 30 * MINUTE));
    const reminders = await mailsTo(silver.email, 'coaching-reminder-%');
    expect(reminders.map((mail) => mail.kind).sort()).toEqual(['coaching-reminder-day', 'coaching-reminder-hour']);
    expect(reminders.find((mail) => mail.kind === 'coaching-reminder-hour')!.subject).toBe(`In an hour: ${session.title}`);
  });
});

describe('recordings and the calendar feed', () => {
  it('shows a recording to the tiers it is for, locked to the others', async () => {
    const session = await schedule(60, { min_tier: 'gold' });
    await t.db
      .update(coachingSessions)
      .set({ startsAt: new Date(Date.now() - 3 * 60 * MINUTE) })
      .where(eq(coachingSessions.id, session.id));
    const saved = await request('PUT', `/api/admin/coaching/sessions/${session.id}/recording`, editor, {
      recording_url: 'https://videos.example.com/replay',
      notes: 'Scripts we used.',
    });
    expect(saved.statusCode).toBe(200);
    const [silver, gold] = [await t.loginAs('silver'), await t.loginAs('gold')];
    const shown = async (who: MemberLogin) =>
      ((await request('GET', '/api/coaching/recordings', who.headers)).json() as { id: string }[]).find((each) => each.id === session.id);
    expect(await shown(silver)).toMatchObject({ locked: true, video_url: null, notes: null });
    expect(await shown(gold)).toMatchObject({ locked: false, video_url: 'https://videos.example.com/replay', notes: 'Scripts we used.' });
  });

  it('serves a private feed of the member’s sessions at a secret address, until they make a new one', async () => {
    const session = await schedule(5 * 24 * 60);
    const silver = await t.loginAs('silver');
    await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers);
    const made = (await request('POST', '/api/coaching/calendar-feed', silver.headers)).json() as { url: string; webcal_url: string };
    expect(made.webcal_url.startsWith('webcal:')).toBe(true);
    const path = new URL(made.url).pathname;
    const feed = await request('GET', path);
    expect(feed.statusCode).toBe(200);
    expect(feed.body).toContain(`SUMMARY:${session.title}`);
    await request('POST', '/api/coaching/calendar-feed', silver.headers);
    expect((await request('GET', path)).statusCode).toBe(404);
  });

  it('keeps the member’s time zone, and refuses one that does not exist', async () => {
    const member = await t.loginAs('free');
    expect((await request('PUT', '/api/account/time-zone', member.headers, { time_zone: 'America/Denver' })).statusCode).toBe(200);
    const refused = await request('PUT', '/api/account/time-zone', member.headers, { time_zone: 'Moon/Base' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toBe('Choose a time zone from the list, such as America/Chicago');
  });
});
