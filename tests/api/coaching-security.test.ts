import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_NEEDS_PLACE, JOIN_WHILE_WAITING, type SessionView, type StaffSessionView } from '../../common/coaching.contract.ts';
import { COACHING } from '../../common/limits.ts';
import { localTimeOf } from '../../common/time-zones.ts';
import { coachingAttendance, coachingSessions, members } from '../../db/schema.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { handOutNews } from '../../server/notifications/notification-jobs.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { multipartBody } from '../helpers/multipart.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// What an attacker tried on live coaching: joining a full session from its waiting list, making a
// member "attend" from another site, and watching a recording whose video file is kept from them.

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

type Headers = Record<string, string>;
const request = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

const MINUTE = 60_000;
const MEETING = 'https://meet.example.com/live-room';
function inUtc(instant: Date) {
  const local = localTimeOf(instant, 'UTC');
  const two = (value: number) => String(value).padStart(2, '0');
  return { date: `${local.year}-${two(local.month)}-${two(local.day)}`, time: `${two(local.hour)}:${two(local.minute)}`, time_zone: 'UTC' };
}
let numbered = 0;
async function schedule(minutesAhead: number, details: { min_tier?: string; capacity?: number } = {}) {
  const answer = await request('POST', '/api/admin/coaching/series', editor, {
    title: `Guarded session ${++numbered}`,
    host_staff_id: editorId,
    ...inUtc(new Date(Date.now() + minutesAhead * MINUTE)),
    duration_minutes: 60,
    min_tier: 'silver',
    capacity: 50,
    join_url: MEETING,
    ...details,
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json() as StaffSessionView;
}
/** A session whose join link is open now. */
const openSession = (details: { min_tier?: string; capacity?: number } = {}) => schedule(COACHING.joinOpensMinutesBefore - 5, details);
const sessionAs = async (who: MemberLogin, id: string) =>
  (await request('GET', `/api/coaching/sessions/${id}`, who.headers)).json() as SessionView;
const join = (who: MemberLogin, id: string) => request('GET', `/api/coaching/sessions/${id}/join`, who.headers);
const attendees = async (sessionId: string) =>
  (await t.db.select().from(coachingAttendance).where(eq(coachingAttendance.sessionId, sessionId))).map((row) => row.memberId);

describe('the join link and the join redirect are for members holding a place', () => {
  it('keeps a member waiting for a place in a full session out: no join link, a refusal, no attendance', async () => {
    const session = await openSession({ capacity: 1 });
    const [seated, waiting] = [await t.loginAs('silver'), await t.loginAs('gold')];
    expect((await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, seated.headers)).statusCode).toBe(201);
    expect((await request('POST', `/api/coaching/sessions/${session.id}/waitlist`, waiting.headers)).statusCode).toBe(201);

    expect(await sessionAs(waiting, session.id)).toMatchObject({ waitlisted: true, rsvped: false, join_url: null });
    const refused = await join(waiting, session.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.json().detail).toBe(JOIN_WHILE_WAITING);

    expect((await sessionAs(seated, session.id)).join_url).toBe(`/api/coaching/sessions/${session.id}/join`);
    const joined = await join(seated, session.id);
    expect(joined.statusCode).toBe(303);
    expect(joined.headers.location).toBe(MEETING);
    expect(await attendees(session.id)).toEqual([seated.memberId]);
  });

  it('gives a member who has not RSVP’d no join link, even with places left, until they take one', async () => {
    const session = await openSession();
    const silver = await t.loginAs('silver');
    expect(await sessionAs(silver, session.id)).toMatchObject({ locked: false, rsvped: false, join_url: null });
    const refused = await join(silver, session.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(JOIN_NEEDS_PLACE);
    expect(await attendees(session.id)).toEqual([]);

    expect((await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, silver.headers)).statusCode).toBe(201);
    expect((await sessionAs(silver, session.id)).join_url).toBe(`/api/coaching/sessions/${session.id}/join`);
    expect((await join(silver, session.id)).headers.location).toBe(MEETING);
    expect(await attendees(session.id)).toEqual([silver.memberId]);
  });

  it('refuses a member holding a place once their plan no longer reaches the session', async () => {
    const session = await openSession({ min_tier: 'gold' });
    const gold = await t.loginAs('gold');
    expect((await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, gold.headers)).statusCode).toBe(201);
    await t.db.update(members).set({ membershipTier: 'silver', complimentaryTier: 'silver' }).where(eq(members.id, gold.memberId));

    expect(await sessionAs(gold, session.id)).toMatchObject({ locked: true, join_url: null });
    const refused = await join(gold, session.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('This session is for Gold members and above. Upgrade your plan to join.');
    expect(await attendees(session.id)).toEqual([]);
  });
});

describe('attendance is recorded only from the site itself', () => {
  /** The join as a browser asks for it with the member's session cookie, and what it says of where it comes from. */
  const joinWithCookie = (who: MemberLogin, id: string, headers: Headers) =>
    t.app.inject({ method: 'GET', url: `/api/coaching/sessions/${id}/join`, cookies: { rp_session: who.token }, headers });

  it('records nothing for a join another site asks for (a link, an image, a sibling subdomain), and leads to the session’s page', async () => {
    const session = await openSession();
    const member = await t.loginAs('silver');
    await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, member.headers);
    const fromElsewhere: Headers[] = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      // Loaded by a page of the site itself (an image), not a member's click.
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      // An older browser, sent from another site's page, or with nothing to say where from.
      { referer: 'https://evil.example/attend' },
      {},
    ];
    for (const headers of fromElsewhere) {
      const answer = await joinWithCookie(member, session.id, headers);
      expect(answer.statusCode, JSON.stringify(headers)).toBe(303);
      expect(answer.headers.location, JSON.stringify(headers)).toBe(`/coaching#session-${session.id}`);
    }
    expect(await attendees(session.id)).toEqual([]);
    expect((await request('GET', `/api/admin/coaching/sessions/${session.id}`, editor)).json().attended_count).toBe(0);
  });

  it('records the member’s own click on the page’s Join now, an address they typed, and an older browser’s same-site Referer', async () => {
    for (const headers of [
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-user': '?1' },
      { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { referer: `${t.config.publicUrl}/coaching` },
    ] as Headers[]) {
      const session = await openSession();
      const member = await t.loginAs('silver');
      await request('POST', `/api/coaching/sessions/${session.id}/rsvp`, member.headers);
      const answer = await joinWithCookie(member, session.id, headers);
      expect(answer.statusCode, JSON.stringify(headers)).toBe(303);
      expect(answer.headers.location).toBe(MEETING);
      expect(await attendees(session.id)).toEqual([member.memberId]);
    }
  });
});

describe('a recording’s video keeps its own file’s rule', () => {
  it('keeps a Gold-only video on a Bronze session from Bronze members, in the library and at its address', async () => {
    const video = fs.readFileSync(path.join(import.meta.dirname, '../../db/seed/files/lessons/lesson-preview-1.webm'));
    const { payload, headers } = multipartBody({ folder: 'videos', visibility: 'gold' }, { name: 'replay.webm', content: video });
    const uploaded = await t.app.inject({ method: 'POST', url: '/api/admin/upload', headers: { ...editor, ...headers }, payload });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const fileId = (uploaded.json() as { id: string }).id;

    const session = await schedule(60, { min_tier: 'bronze' });
    await t.db
      .update(coachingSessions)
      .set({ startsAt: new Date(Date.now() - 3 * 60 * MINUTE) })
      .where(eq(coachingSessions.id, session.id));
    const saved = await request('PUT', `/api/admin/coaching/sessions/${session.id}/recording`, editor, { recording_file_id: fileId });
    expect(saved.statusCode, saved.body).toBe(200);

    const [bronze, gold] = [await t.loginAs('bronze'), await t.loginAs('gold')];
    const shown = async (who: MemberLogin) =>
      ((await request('GET', '/api/coaching/recordings', who.headers)).json() as { id: string }[]).find((each) => each.id === session.id);
    expect(await shown(bronze)).toMatchObject({ locked: true, video_url: null, min_tier: 'gold' });
    const refused = await request('GET', `/api/coaching/recordings/${session.id}/video`, bronze.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('Your membership does not include this recording. Upgrade your plan to open it.');

    expect(await shown(gold)).toMatchObject({ locked: false, video_url: `/api/coaching/recordings/${session.id}/video` });
    const served = await request('GET', `/api/coaching/recordings/${session.id}/video`, gold.headers);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('video/webm');

    // The news of it goes to those it opens to.
    await handOutNews(createDataAccess(t.db), createMailer({ publicUrl: t.config.publicUrl, nudge: () => {} }));
    const told = async (who: MemberLogin) =>
      ((await request('GET', '/api/notifications', who.headers)).json() as { items: { title: string }[] }).items.map((item) => item.title);
    expect(await told(gold)).toContain(`New recording: ${session.title}`);
    expect(await told(bronze)).not.toContain(`New recording: ${session.title}`);
  });
});
