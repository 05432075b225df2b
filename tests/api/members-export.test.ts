import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lifecycleMails, members, subscriptions } from '../../db/schema.ts';
import { startFakeStripe, type FakeStripe } from '../helpers/stripe-server.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(() => t.close());

describe('GET /api/admin/members/export.csv', () => {
  it('streams every member, however many joined at the same moment', async () => {
    // One insert: every row gets the same created_at, the hardest case for paging.
    const rows = Array.from({ length: 1203 }, (_, index) => ({
      name: `Export Member ${index}`,
      email: `export-${index}@example.com`,
      passwordHash: 'not-a-real-hash',
    }));
    await t.db.insert(members).values(rows);
    const staff = await t.loginAsStaff();
    const response = await t.app.inject({ url: '/api/admin/members/export.csv', headers: { authorization: `Bearer ${staff.token}` } });
    expect(response.statusCode).toBe(200);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Email,Tier,Joined');
    const emails = new Set(lines.slice(1).map((line) => line.split(',')[1]));
    expect(emails.size).toBe(1203);
    expect(lines).toHaveLength(1204);
  });
});

describe('GET /api/account/export', () => {
  // Two members with everything a member can have, side by side on one site: each one's file holds
  // every piece of their own, and nothing of the other's.
  let site: TestApp;
  let stripe: FakeStripe;
  let coach: { id: string; headers: { authorization: string } };
  beforeAll(async () => {
    stripe = await startFakeStripe();
    site = await createTestApp({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_BASE: stripe.url },
    });
    await site.app.listen({ port: 0, host: '127.0.0.1' });
    stripe.setWebhookTarget(`http://127.0.0.1:${(site.app.server.address() as AddressInfo).port}/api/billing/webhook`);
    const login = await site.loginAsStaff({ role: 'editor' });
    coach = { id: login.id, headers: { authorization: `Bearer ${login.token}` } };
    // A coach free every day from 9 to 5 (UTC), for the members' 1-on-1s.
    const availability = await request('PUT', '/api/admin/one-on-one/availability', coach.headers, {
      time_zone: 'UTC',
      accepting: true,
      meeting_url: 'https://meet.example.com/coach-room',
      slot_minutes: 60,
      min_notice_hours: 0,
      windows: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, starts: '09:00', ends: '17:00', kind: 'open' })),
      days_off: [],
    });
    expect(availability.statusCode, availability.body).toBe(200);
  });
  afterAll(async () => {
    await site.close();
    await stripe.close();
  });

  const request = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    site.app.inject({ method, url, headers, payload });
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) => {
    const answer = await request(method, url, headers, payload);
    expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBeLessThan(300);
    return answer.json();
  };

  /** A member with a paid plan (and its invoice), courses, progress, a certificate, community writing, live sessions, a 1-on-1, goals and messages. */
  async function memberWithEverything(who: {
    name: string;
    period: 'monthly' | 'yearly';
    finished: string;
    started: string;
    address: string;
    timeZone: string;
    start: string;
  }) {
    const member = await site.loginAs('free', { name: who.name });
    const checkout = await ok('POST', '/api/billing/checkout', member.headers, { tier: 'gold', period: who.period });
    await stripe.completeCheckout(new URL(checkout.url).pathname.split('/').pop()!);
    await expect
      .poll(async () => (await site.db.select().from(members).where(eq(members.id, member.memberId)))[0]!.membershipTier, {
        timeout: 10_000,
      })
      .toBe('gold');
    const [plan] = await site.db.select().from(subscriptions).where(eq(subscriptions.memberId, member.memberId));
    const invoices = (await ok('GET', '/api/billing/invoices', member.headers)) as { id: string; number: string }[];
    expect(invoices.length).toBeGreaterThan(0);

    // A course finished (its certificate), another started (one lesson of it).
    const lessonsOf = async (course: string) =>
      ((await ok('GET', `/api/courses/${course}/lessons`, {})) as { id: string }[]).map((l) => l.id);
    const finished = await lessonsOf(who.finished);
    let certificate = '';
    await ok('POST', `/api/courses/${who.finished}/enrol`, member.headers);
    for (const lesson of finished)
      certificate = (await ok('POST', `/api/lessons/${lesson}/complete`, member.headers)).certificate_code ?? '';
    expect(certificate).toMatch(/^RP-/);
    const [begun] = await lessonsOf(who.started);
    await ok('POST', `/api/courses/${who.started}/enrol`, member.headers);
    await ok('POST', `/api/lessons/${begun}/complete`, member.headers);

    // Writing in the community, a sign-in from elsewhere, a time zone, a goal, a message to the staff.
    const discussion = await ok('POST', '/api/community/posts', member.headers, {
      title: `${who.name} asks`,
      body: `${who.name} wrote this.`,
    });
    await site.app.sessions.create(
      { kind: 'member', memberId: member.memberId },
      { userAgent: 'Mozilla/5.0 (iPhone) Safari/604.1', ipAddress: who.address },
    );
    await ok('PUT', '/api/account/time-zone', member.headers, { time_zone: who.timeZone });
    const goal = await ok('POST', '/api/goals', member.headers, {
      kind: 'count',
      title: `${who.name}'s calls`,
      target: 20,
      unit: 'calls',
      period: 'week',
    });
    await ok('POST', `/api/goals/${goal.id}/progress`, member.headers, { amount: 3 });
    await ok('POST', '/api/licence/licences', member.headers, {
      state: 'TX',
      licence_type: 'broker',
      licence_number: `${who.name} 42`,
      renews_on: '2028-06-30',
    });
    await ok('POST', '/api/contact', member.headers, {
      name: who.name,
      email: member.email,
      subject: `${who.name} writes`,
      message: `${who.name}'s question.`,
    });

    // A live session of their own (RSVP'd), and a 1-on-1 with the coach.
    const at = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString();
    const session = await ok('POST', '/api/admin/coaching/series', coach.headers, {
      title: `Live session for ${who.name}`,
      description: 'Bring your questions.',
      host_staff_id: coach.id,
      date: at.slice(0, 10),
      time: who.start,
      time_zone: 'UTC',
      duration_minutes: 60,
      min_tier: 'silver',
      capacity: 50,
      join_url: 'https://meet.example.com/live-room',
    });
    await ok('POST', `/api/coaching/sessions/${session.id}/rsvp`, member.headers);
    const slots = await ok('GET', `/api/one-on-one/slots?coach=${coach.id}`, member.headers);
    const starts = (slots.days as { starts: string[] }[]).flatMap((day) => day.starts);
    const slot = starts[who.period === 'monthly' ? 0 : 1]!;
    await ok('POST', '/api/one-on-one/bookings', member.headers, { coach_id: coach.id, starts_at: slot, topic: `${who.name}'s topic` });
    return { member, plan: plan!, invoices, finished, begun: begun!, certificate, discussion, goal, session, slot, who };
  }

  it('holds every piece of the member’s own data, section by section, and nothing of the other member', async () => {
    const erin = await memberWithEverything({
      name: 'Export Erin',
      period: 'monthly',
      finished: 'first-90-days',
      started: 'sphere-of-influence',
      address: '203.0.113.10',
      timeZone: 'America/Denver',
      start: '15:00',
    });
    const oscar = await memberWithEverything({
      name: 'Other Oscar',
      period: 'yearly',
      finished: 'mortgage-basics-for-agents',
      started: 'listing-presentation-mastery',
      address: '198.51.100.20',
      timeZone: 'Europe/Paris',
      start: '16:00',
    });
    // Each answers and likes the other's discussion.
    const replies = {
      erin: await ok('POST', `/api/community/posts/${oscar.discussion.id}/replies`, erin.member.headers, { body: 'Export Erin answers.' }),
      oscar: await ok('POST', `/api/community/posts/${erin.discussion.id}/replies`, oscar.member.headers, { body: 'Other Oscar answers.' }),
    };
    await ok('PUT', `/api/community/posts/${oscar.discussion.id}/like`, erin.member.headers);
    await ok('PUT', `/api/community/posts/${erin.discussion.id}/like`, oscar.member.headers);
    // Each was sent a lifecycle mail: Erin a nudge, Oscar the course-finished one.
    await site.db.insert(lifecycleMails).values([
      { automation: 'inactive', memberId: erin.member.memberId, occasion: '2026-11-01' },
      { automation: 'course-finished', memberId: oscar.member.memberId, occasion: 'a-course' },
    ]);

    for (const [mine, theirs, myReply] of [
      [erin, oscar, replies.erin],
      [oscar, erin, replies.oscar],
    ] as const) {
      const exported = await request('GET', '/api/account/export', mine.member.headers);
      expect(exported.statusCode).toBe(200);
      const data = exported.json();
      const { name } = mine.who;
      expect(Object.keys(data).sort()).toEqual(
        [
          'format',
          'exported_at',
          'profile',
          'consents',
          'plan',
          'invoices',
          'lessons_completed',
          'sign_ins',
          'courses',
          'certificates',
          'courses_opened_early',
          'quiz_tries',
          'discussions',
          'replies',
          'likes',
          'live_sessions',
          'one_on_ones',
          'goals',
          'goal_progress',
          'licences',
          'lessons_opened_early',
          'continuing_education',
          'lifecycle_mails',
          'messages_to_us',
        ].sort(),
      );
      expect(data.profile).toMatchObject({ name, email: mine.member.email, membership_tier: 'gold', time_zone: mine.who.timeZone });
      expect(data.consents).toMatchObject({ optional_email: true });
      expect(data.plan).toEqual([
        expect.objectContaining({ status: 'active', tier: 'gold', period: mine.who.period, amount_cents: mine.plan.amountCents }),
      ]);
      expect(data.invoices).toEqual(mine.invoices);
      expect(data.lessons_completed.map((row: { lesson_id: string }) => row.lesson_id).sort()).toEqual(
        [...mine.finished, mine.begun].sort(),
      );
      expect(data.courses.map((row: { course_id: string }) => row.course_id).sort()).toEqual([mine.who.finished, mine.who.started].sort());
      expect(data.certificates).toEqual([expect.objectContaining({ code: mine.certificate, course_id: mine.who.finished })]);
      expect(data.discussions).toEqual([expect.objectContaining({ id: mine.discussion.id, text: `${name} wrote this.` })]);
      expect(data.replies).toEqual([
        expect.objectContaining({ id: myReply.id, discussion_id: theirs.discussion.id, text: `${name} answers.` }),
      ]);
      expect(data.likes).toEqual([expect.objectContaining({ discussion_id: theirs.discussion.id })]);
      expect(data.sign_ins.map((row: { address: string | null }) => row.address)).toContain(mine.who.address);
      expect(data.live_sessions).toEqual([expect.objectContaining({ session_id: mine.session.id, title: `Live session for ${name}` })]);
      expect(data.one_on_ones).toEqual([expect.objectContaining({ starts_at: mine.slot, topic: `${name}'s topic` })]);
      expect(data.goals).toEqual([expect.objectContaining({ id: mine.goal.id, title: `${name}'s calls` })]);
      expect(data.goal_progress).toEqual([expect.objectContaining({ goal_id: mine.goal.id, amount: 3 })]);
      expect(data.licences).toEqual([expect.objectContaining({ state: 'TX', licence_number: `${name} 42`, renews_on: '2028-06-30' })]);
      expect(data.continuing_education).toEqual([]);
      expect(data.messages_to_us).toEqual([expect.objectContaining({ subject: `${name} writes`, message: `${name}'s question.` })]);
      expect(data.lifecycle_mails).toEqual([
        expect.objectContaining({ automation: mine === erin ? 'inactive' : 'course-finished', opened_at: null }),
      ]);

      // Nothing of the other member, in any section, and no secret.
      const foreign = [
        theirs.who.name,
        theirs.member.email,
        theirs.member.memberId,
        theirs.plan.id,
        theirs.plan.customerId,
        ...theirs.invoices.flatMap((invoice) => [invoice.id, invoice.number]),
        theirs.certificate,
        theirs.who.finished,
        theirs.who.started,
        theirs.who.address,
        theirs.session.id,
        theirs.slot,
        theirs.goal.id,
        theirs.member.token,
        mine.member.token,
        '$argon2',
        'password',
      ];
      for (const text of foreign) expect(exported.body, text).not.toContain(text);
    }
  });
});
