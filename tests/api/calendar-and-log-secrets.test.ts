import { and, eq, like } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffSessionView, SessionView } from '../../common/coaching.contract.ts';
import type { Availability, BookingView, FreeSlots } from '../../common/one-on-one.contract.ts';
import { localTimeOf } from '../../common/time-zones.ts';
import { members, oneOnOneBookings, outboxMessages } from '../../db/schema.ts';
import { REDACTED, SECRET_PATHS } from '../../server/http/request-log.ts';
import { generateSessionToken } from '../../server/sessions/tokens.ts';
import routeTable from '../../app/routes.ts';
import { createTestApp, uniqueEmail, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Calendars and the request log, as an attacker would try them: a member's words that break out of a
// calendar file (or a mail header, or a CSV cell), a feed that keeps showing what a member's plan no
// longer reaches, and a feed's secret written to the log.

let t: TestApp;
let editor: { authorization: string };
let editorId: string;
beforeAll(async () => {
  t = await createTestApp({ seed: false, captureLogs: true });
  const login = await t.loginAsStaff({ role: 'owner' });
  editor = { authorization: `Bearer ${login.token}` };
  editorId = login.id;
});
afterAll(() => t.close());

type Headers = { authorization: string } | Record<string, never>;
const request = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

/** The events a calendar app reads in a file (RFC 5545, through ical.js). */
function eventsIn(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((vevent) => ({
    uid: String(vevent.getFirstPropertyValue('uid')),
    summary: vevent.getFirstPropertyValue('summary'),
    description: vevent.getFirstPropertyValue('description'),
    location: vevent.getFirstPropertyValue('location'),
    properties: vevent
      .getAllProperties()
      .map((property) => property.name)
      .sort(),
  }));
}
const EVENT_PROPERTIES = ['description', 'dtend', 'dtstamp', 'dtstart', 'location', 'sequence', 'status', 'summary', 'uid', 'url'];
/** A reader that ends a line at any CR or LF, as some calendar apps do. */
const asLenientReaderSees = (text: string) => eventsIn(text.replace(/\r\n|\r|\n/g, '\r\n'));

const mailsTo = (email: string, kind: string) =>
  t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.toAddress, email), like(outboxMessages.kind, kind)));

// ---- (A) One text rule -------------------------------------------------------------------------

describe('text that reaches a calendar, a mail header or a CSV', () => {
  const week: Availability = {
    time_zone: 'UTC',
    accepting: true,
    meeting_url: 'https://meet.example.com/coach-room',
    slot_minutes: 60,
    min_notice_hours: 0,
    windows: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, starts: '09:00', ends: '17:00', kind: 'open' as const })),
    days_off: [],
  };
  let coach: { headers: { authorization: string }; id: string; email: string };
  beforeAll(async () => {
    const login = await t.loginAsStaff({ role: 'editor' });
    coach = { headers: { authorization: `Bearer ${login.token}` }, id: login.id, email: login.email };
    const saved = await request('PUT', '/api/admin/one-on-one/availability', coach.headers, week);
    expect(saved.statusCode, saved.body).toBe(200);
  });

  /** A free start of the coach, a few days ahead. */
  async function freeStart(who: MemberLogin) {
    const from = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const slots = (await request('GET', `/api/one-on-one/slots?coach=${coach.id}&from=${from}`, who.headers)).json() as FreeSlots;
    return slots.days.flatMap((day) => day.starts)[0]!;
  }
  const book = async (who: MemberLogin, topic: string) =>
    request('POST', '/api/one-on-one/bookings', who.headers, { coach_id: coach.id, starts_at: await freeStart(who), topic });

  const INJECTED =
    'Pricing\rORGANIZER:mailto:attacker@example.com\rATTENDEE:mailto:victim@example.com\rEND:VEVENT\rBEGIN:VEVENT\rUID:forged';

  it('refuses a bare CR or another control character in a 1-on-1 topic, with a sentence, and books nothing', async () => {
    const gold = await t.loginAs('gold');
    for (const topic of [INJECTED, 'Offers\u000bnow', 'Escape \u001b[31m', 'Next line\u0085here', 'C1 \u009b']) {
      const refused = await book(gold, topic);
      expect(refused.statusCode, JSON.stringify(topic)).toBe(400);
      expect(refused.json()).toEqual({ detail: 'What you want to work on must not contain control characters' });
    }
    expect(await t.db.select().from(oneOnOneBookings).where(eq(oneOnOneBookings.memberId, gold.memberId))).toHaveLength(0);
  });

  it('refuses a line break or a control character in a name, at sign-up and on the account, and stores none', async () => {
    for (const [name, detail] of [
      ['Ava\rORGANIZER:mailto:attacker@example.com', 'Name must be a single line'],
      ['Ava\nAgent', 'Name must be a single line'],
      ['Ava\u0007Agent', 'Name must not contain control characters'],
      ['Ava\u009bAgent', 'Name must not contain control characters'],
    ] as const) {
      const email = uniqueEmail('ctrl');
      const signUp = await request('POST', '/api/auth/register', {}, { name, email, password: 'secret12' });
      expect(signUp.statusCode, JSON.stringify(name)).toBe(400);
      expect(signUp.json()).toEqual({ detail });
      expect(await t.db.select().from(members).where(eq(members.email, email))).toHaveLength(0);
    }
    const member = await t.loginAs('free', { name: 'Ava Agent' });
    const renamed = await request('POST', '/api/account/name', member.headers, { name: 'Ava\rAgent' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toEqual({ detail: 'Name must be a single line' });
    const [row] = await t.db.select({ name: members.name }).from(members).where(eq(members.id, member.memberId));
    expect(row?.name).toBe('Ava Agent');
  });

  it('refuses a line break in a session title and keeps a description’s lines, CRLF stored as LF', async () => {
    const start = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
    const local = localTimeOf(start, 'UTC');
    const two = (value: number) => String(value).padStart(2, '0');
    const base = {
      description: 'Line one\r\nLine two\r\n\tindented',
      host_staff_id: editorId,
      date: `${local.year}-${two(local.month)}-${two(local.day)}`,
      time: '18:00',
      time_zone: 'UTC',
      duration_minutes: 60,
      min_tier: 'silver',
      capacity: 10,
      join_url: 'https://meet.example.com/room',
    };
    const refused = await request('POST', '/api/admin/coaching/series', editor, { ...base, title: 'Pricing\rSUMMARY:forged' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: 'Title must be a single line' });
    const bareCr = await request('POST', '/api/admin/coaching/series', editor, { ...base, title: 'Fine', description: 'One\rTwo' });
    expect(bareCr.json()).toEqual({ detail: 'Description must not contain control characters' });
    const made = await request('POST', '/api/admin/coaching/series', editor, { ...base, title: 'Pricing, listings; and \\ offers' });
    expect(made.statusCode, made.body).toBe(201);
    expect((made.json() as StaffSessionView).description).toBe('Line one\nLine two\n\tindented');
  });

  it('mails the coach and the member a calendar file holding exactly the 1-on-1, with the topic as typed', async () => {
    const long = `Négociation 🏡 ${'契約と価格、'.repeat(40)} ${'€'.repeat(60)} 👩‍💼 fin`;
    const topic = `Offers, counter-offers; "escalation" clauses\r\nC:\\deals\\2026 \\n is not a line break\n${long}`;
    const gold = await t.loginAs('gold', { name: 'Zoë Ångström, Broker; Team \\ Lead' });
    const booked = await book(gold, topic);
    expect(booked.statusCode, booked.body).toBe(201);
    const typed = topic.replace(/\r\n/g, '\n');
    expect((booked.json() as BookingView).topic).toBe(typed);

    const [toCoach] = await mailsTo(coach.email, 'one-on-one-booked-coach');
    const [toMember] = await mailsTo(gold.email, 'one-on-one-booked');
    for (const [mail, withWhom] of [
      [toCoach, 'Zoë Ångström, Broker; Team \\ Lead'],
      [toMember, coach.email.split('@')[0]!],
    ] as const) {
      const calendar = mail!.calendar!;
      const events = eventsIn(calendar);
      expect(events).toHaveLength(1);
      expect(events[0]!.properties).toEqual(EVENT_PROPERTIES);
      expect(events[0]!.summary).toBe(`1-on-1 coaching with ${withWhom}`);
      expect(events[0]!.description).toContain(`To work on: ${typed}\n\nJoin: https://meet.example.com/coach-room`);
      expect(asLenientReaderSees(calendar)).toHaveLength(1);
      for (const line of calendar.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    }
    // The mail's subject (a header) holds the name on one line.
    expect(toCoach!.subject).not.toMatch(/[\r\n]/);
  });

  it('writes a name stored before the rule (with a CR) into the coach’s calendar as text, in one event', async () => {
    const gold = await t.loginAs('gold');
    await t.db
      .update(members)
      .set({ name: `Mallory${INJECTED}` })
      .where(eq(members.id, gold.memberId));
    const booked = await book(gold, `Topic${INJECTED.replace(/\r/g, '\n')}`);
    expect(booked.statusCode, booked.body).toBe(201);
    const [toCoach] = (await mailsTo(coach.email, 'one-on-one-booked-coach')).filter((mail) => mail.text.includes('Mallory'));
    const calendar = toCoach!.calendar!;
    for (const events of [eventsIn(calendar), asLenientReaderSees(calendar)]) {
      expect(events).toHaveLength(1);
      expect(events[0]!.properties).toEqual(EVENT_PROPERTIES);
      expect(events[0]!.uid).toMatch(/^one-on-one-.+@realtypocket$/);
    }
    expect(eventsIn(calendar)[0]!.summary).toBe(`1-on-1 coaching with Mallory${INJECTED.replace(/\r/g, '\n')}`);
    expect(calendar.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('exports members to CSV with formulas kept as text and no control character starting a row or a cell', async () => {
    const stored = ['=HYPERLINK("http://evil.example","Click")', '+1+1', '@SUM(A1)', '\r=cmd|calc', 'Eve\r\nMallory,"Boss"'];
    const emails: string[] = [];
    for (const name of stored) {
      const email = uniqueEmail('csv');
      emails.push(email);
      await t.db.insert(members).values({ name, email, passwordHash: 'not-a-real-hash' });
    }
    const csv = await request('GET', `/api/admin/members/export.csv?search=${encodeURIComponent('csv-')}`, editor);
    expect(csv.statusCode).toBe(200);
    const rows = csv.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('Name,Email,Tier,Joined');
    const body = rows.slice(1);
    expect(body).toHaveLength(stored.length);
    // eslint-disable-next-line no-control-regex -- no control character may be left in a row
    for (const row of body) expect(row).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    const nameOf = (email: string) => body.find((row) => row.includes(email))!.split(`,"${email}"`)[0];
    expect(emails.map(nameOf)).toEqual([
      `"'=HYPERLINK(""http://evil.example"",""Click"")"`,
      `"'+1+1"`,
      `"'@SUM(A1)"`,
      `"' =cmd|calc"`,
      `"Eve Mallory,""Boss"""`,
    ]);
  });
});

// ---- (B) The calendar feed follows the member's plan -------------------------------------------------

describe('the private calendar feed', () => {
  const HALL = 'Riverside Conference Hall, 200 Main Street, Austin';
  const NEW_HALL = 'Lakeside Pavilion, 9 Shore Road, Austin';
  const GOLD_ROOM = 'https://meet.example.com/gold-room-7f3a';

  async function schedule(details: Record<string, unknown>) {
    const start = localTimeOf(new Date(Date.now() + 5 * 24 * 60 * 60 * 1000), 'UTC');
    const two = (value: number) => String(value).padStart(2, '0');
    const answer = await request('POST', '/api/admin/coaching/series', editor, {
      description: 'Bring your questions.',
      host_staff_id: editorId,
      date: `${start.year}-${two(start.month)}-${two(start.day)}`,
      time: '18:00',
      time_zone: 'UTC',
      duration_minutes: 60,
      capacity: 20,
      ...details,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as StaffSessionView;
  }
  const setTier = async (memberId: string, tier: string) =>
    expect((await request('POST', `/api/admin/members/${memberId}/tier`, editor, { membership_tier: tier })).statusCode).toBe(200);
  const uidOf = (id: string) => `coaching-${id}@realtypocket`;

  it('drops a Gold event (its address, its join link) once the member is moved down, also after staff change it', async () => {
    const goldEvent = await schedule({ title: 'Gold Masterclass', kind: 'event', min_tier: 'gold', address: HALL, join_url: '' });
    const goldOnline = await schedule({ title: 'Gold Hot Seat', kind: 'event', min_tier: 'gold', join_url: GOLD_ROOM });
    const silverSession = await schedule({ title: 'Silver Q&A', min_tier: 'silver', join_url: 'https://meet.example.com/silver' });

    const member = await t.loginAs('free');
    await setTier(member.memberId, 'gold');
    for (const session of [goldEvent, goldOnline, silverSession])
      expect((await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, member.headers)).statusCode).toBe(201);
    const made = (await request('POST', '/api/coaching/calendar-feed', member.headers)).json() as { url: string };
    const feedPath = new URL(made.url).pathname;
    const feed = async () => {
      const answer = await request('GET', feedPath);
      expect(answer.statusCode).toBe(200);
      return answer.body;
    };

    // As Gold: every session they RSVP'd, the event's address with it.
    const asGold = eventsIn(await feed());
    expect(asGold.map((event) => event.uid).sort()).toEqual([goldEvent, goldOnline, silverSession].map((each) => uidOf(each.id)).sort());
    expect(asGold.find((event) => event.uid === uidOf(goldEvent.id))?.location).toBe(HALL);

    // Moved down to Silver: the API refuses the Gold sessions; the feed holds exactly what the API shows.
    await setTier(member.memberId, 'silver');
    expect(await request('GET', `/api/coaching/sessions/${goldEvent.id}`, member.headers).then((answer) => answer.json())).toMatchObject({
      locked: true,
      address: null,
      join_url: null,
    });
    for (const session of [goldEvent, goldOnline])
      expect((await request('GET', `/api/coaching/sessions/${session.id}/calendar.ics`, member.headers)).statusCode).toBe(403);
    const expectOnlySilver = (text: string) => {
      expect(eventsIn(text).map((event) => event.uid)).toEqual([uidOf(silverSession.id)]);
      for (const secret of [HALL, 'Riverside', NEW_HALL, 'Lakeside', GOLD_ROOM, 'gold-room', goldEvent.id, goldOnline.id])
        expect(text, secret).not.toContain(secret);
    };
    expectOnlySilver(await feed());

    // Staff change the Gold event and the online one after the downgrade: the feed still leaves them out,
    // and so does the mail telling those who RSVP'd.
    for (const [session, change] of [
      [goldEvent, { address: NEW_HALL, title: 'Gold Masterclass (new venue)' }],
      [goldOnline, { join_url: `${GOLD_ROOM}-v2` }],
    ] as const)
      expect((await request('PATCH', `/api/admin/coaching/series/${session.series_id}`, editor, change)).statusCode).toBe(200);
    expectOnlySilver(await feed());
    for (const mail of await mailsTo(member.email, 'coaching-changed'))
      for (const secret of [NEW_HALL, GOLD_ROOM]) expect(`${mail.subject}${mail.text}${mail.html}`).not.toContain(secret);
    expect((await request('GET', `/api/coaching/sessions/${goldEvent.id}`, member.headers)).json() as SessionView).toMatchObject({
      address: null,
      locked: true,
    });

    // Back to Gold: the events return, with what staff changed.
    await setTier(member.memberId, 'gold');
    const again = eventsIn(await feed());
    expect(again.map((event) => event.uid).sort()).toEqual([goldEvent, goldOnline, silverSession].map((each) => uidOf(each.id)).sort());
    expect(again.find((event) => event.uid === uidOf(goldEvent.id))).toMatchObject({
      location: NEW_HALL,
      summary: 'Gold Masterclass (new venue)',
    });
  });
});

// ---- (C) No secret in the request log --------------------------------------------------------------

describe('the request log', () => {
  /** Every route of the API, with its parameters, read from the server's own route table. */
  function apiRoutes(): string[] {
    const stack: string[] = [];
    const routes: string[] = [];
    for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const match = /^([│ ]*)[├└]── (\S+)/.exec(line);
      if (!match) continue;
      const depth = match[1]!.length / 4;
      stack[depth] = match[2]!;
      stack.length = depth + 1;
      routes.push(stack.join(''));
    }
    return routes;
  }
  /** The pages' routes (app/routes.ts), with their parameters. */
  function pageRoutes(entries: { path?: string; children?: unknown[] }[] = routeTable as never): string[] {
    return entries.flatMap((entry) => [entry.path ?? '', ...pageRoutes((entry.children ?? []) as never)]);
  }
  // Path parameters that hold no secret: ids of rows and slugs, content section names, public file
  // names, certificate codes (printed for anyone to check) and offer codes (handed out to be shared),
  // a state and a licence type (of a CE requirement, the same for every member), an Insights figure's name.
  const NOT_SECRET = new Set([
    'state',
    'key',
    'figure',
    'licence_type',
    'id',
    'section',
    'code',
    'folder',
    'name',
    'courseId',
    'lessonId',
    'episodeId',
    'language',
    'postId',
    'list',
    'memberId',
  ]);

  it('knows every path parameter of the route table: a secret one is hidden by the rule', () => {
    const api = apiRoutes();
    expect(api).toContain('/api/coaching/calendar/:token');
    const secretRoutes: string[] = [];
    for (const route of [...api, ...pageRoutes()]) {
      for (const [, name] of route.matchAll(/:(\w+)/g)) if (!NOT_SECRET.has(name!)) secretRoutes.push(route);
    }
    expect(secretRoutes).toEqual([...SECRET_PATHS]);
  });

  it('holds no token of a calendar feed, an unsubscribe, a team invitation, a reset or a verification link', async () => {
    const member = await t.loginAs('silver');
    const made = (await request('POST', '/api/coaching/calendar-feed', member.headers)).json() as { url: string };
    const feedPath = new URL(made.url).pathname;
    const feedKey = feedPath
      .split('/')
      .at(-1)!
      .replace(/\.ics$/, '');
    const linkToken = generateSessionToken();
    const start = t.logs.length;

    const requests: [string, string, object?][] = [
      ['GET', feedPath],
      ['GET', `${feedPath}?refresh=1`],
      ['GET', `/api/coaching/calendar/${feedKey}`],
      ['GET', `/api/coaching/calendar/${feedKey}/`],
      ['GET', `/api/coaching/calendar//${feedKey}.ics`],
      ['GET', `/API/coaching/calendar/${feedKey}.ics`],
      ['GET', `/api/coaching/calendar/${encodeURIComponent(feedKey)}%2Eics`],
      ['GET', `/api/coaching/calendar/${feedKey}.ics/extra`],
      ['GET', `/api/coaching/calendar/${feedKey.slice(0, 10)}`],
      ['POST', `/api/email/unsubscribe?token=${linkToken}`],
      ['GET', `/unsubscribe?token=${linkToken}`],
      ['GET', `/team/join?token=${linkToken}`],
      ['POST', '/api/teams/invitation', { token: linkToken }],
      ['POST', '/api/teams/join', { token: linkToken }],
      ['GET', `/reset-password?token=${linkToken}`],
      ['POST', '/api/auth/password-reset/confirm', { token: linkToken, password: 'new-secret-1' }],
      ['GET', `/admin/reset-password?token=${linkToken}`],
      ['POST', '/api/admin/password-reset/confirm', { token: linkToken, password: 'new-secret-1' }],
      ['GET', `/verify-email?token=${linkToken}`],
      ['POST', '/api/auth/verify-email', { token: linkToken }],
      ['GET', `/confirm-email?token=${linkToken}`],
      ['POST', '/api/account/email/confirm', { token: linkToken }],
    ];
    for (const [method, url, payload] of requests) {
      const answer = await t.app.inject({ method: method as 'GET', url, payload, headers: member.headers });
      expect(answer.statusCode, url).toBeLessThan(500);
    }
    const lines = t.logs.slice(start);
    // One line (at least) per request, each naming its path.
    expect(lines.length).toBeGreaterThanOrEqual(requests.length);
    const text = lines.join('\n');
    expect(text).toContain(`"path":"/api/coaching/calendar/${REDACTED}"`);
    expect(text).toContain('"path":"/api/email/unsubscribe"');
    for (const secret of [feedKey, feedKey.slice(0, 10), encodeURIComponent(feedKey), linkToken, member.token])
      expect(text.toLowerCase(), secret).not.toContain(secret.toLowerCase());
  });
});
