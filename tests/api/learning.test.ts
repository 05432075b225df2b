import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificates, enrolments, lessonPositions } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, headers?: Record<string, string>) => t.app.inject({ method: 'POST', url, headers });

describe('enrolment', () => {
  it('enrols an entitled member once, however often they start', async () => {
    const member = await t.loginAs('free');
    const first = await post('/api/courses/first-90-days/enrol', member.headers);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ course_id: 'first-90-days', enrolled: true, progress_percent: 0, lesson_count: 6 });
    expect((await post('/api/courses/first-90-days/enrol', member.headers)).statusCode).toBe(200);
    const rows = await t.db.select().from(enrolments).where(eq(enrolments.memberId, member.memberId));
    expect(rows).toHaveLength(1);
  });

  it('refuses a visitor (401), a member below the course tier (403) and an unknown course (404)', async () => {
    expect((await post('/api/courses/first-90-days/enrol')).statusCode).toBe(401);
    const bronze = await t.loginAs('bronze');
    const tooLow = await post('/api/courses/luxury-market/enrol', bronze.headers);
    expect(tooLow.statusCode).toBe(403);
    expect(tooLow.json().detail).toMatch(/Upgrade your plan/);
    expect((await post('/api/courses/nope/enrol', bronze.headers)).statusCode).toBe(404);
  });
});

describe('lesson progress and certificates', () => {
  it('stores progress per lesson, issues a certificate after the last lesson, and lists both', async () => {
    const member = await t.loginAs('free', { name: 'Casey Closer' });
    expect((await post('/api/lessons/first-90-days-l1/complete', member.headers)).statusCode).toBe(409);
    await post('/api/courses/first-90-days/enrol', member.headers);
    const one = await post('/api/lessons/first-90-days-l1/complete', member.headers);
    expect(one.json()).toMatchObject({ progress_percent: 17, completed_lesson_ids: ['first-90-days-l1'], certificate_code: null });
    // Completing twice counts once.
    expect((await post('/api/lessons/first-90-days-l1/complete', member.headers)).json().progress_percent).toBe(17);

    let last;
    for (let lesson = 2; lesson <= 6; lesson++) last = await post(`/api/lessons/first-90-days-l${lesson}/complete`, member.headers);
    const done = last!.json();
    expect(done.progress_percent).toBe(100);
    expect(done.certificate_code).toMatch(/^RP-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    const stored = await t.db.select().from(certificates).where(eq(certificates.memberId, member.memberId));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ memberName: 'Casey Closer', courseTitle: 'Your First 90 Days in Real Estate' });

    const enrolled = (await t.app.inject({ url: '/api/me/enrolments', headers: member.headers })).json();
    expect(enrolled).toEqual([
      expect.objectContaining({ id: 'first-90-days', progress_percent: 100, completed_lessons: 6, lesson_count: 6 }),
    ]);
    const mine = (await t.app.inject({ url: '/api/me/certificates', headers: member.headers })).json();
    expect(mine).toEqual([expect.objectContaining({ code: done.certificate_code, course_title: 'Your First 90 Days in Real Estate' })]);

    // Public verification by code; the PDF only for its owner.
    const verify = await t.app.inject(`/api/certificates/${done.certificate_code}`);
    expect(verify.json()).toMatchObject({ member_name: 'Casey Closer', course_id: 'first-90-days' });
    expect((await t.app.inject('/api/certificates/RP-0000-0000-0000')).statusCode).toBe(404);
    const pdf = await t.app.inject({ url: `/api/certificates/${done.certificate_code}/pdf`, headers: member.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const stranger = await t.loginAs('gold');
    expect((await t.app.inject({ url: `/api/certificates/${done.certificate_code}/pdf`, headers: stranger.headers })).statusCode).toBe(403);
    expect((await t.app.inject(`/api/certificates/${done.certificate_code}/pdf`)).statusCode).toBe(401);
  });

  it('refuses completing a lesson of a course above the member tier, and an unknown lesson', async () => {
    const member = await t.loginAs('silver');
    expect((await post('/api/lessons/luxury-market-l1/complete', member.headers)).statusCode).toBe(403);
    expect((await post('/api/lessons/no-such-lesson/complete', member.headers)).statusCode).toBe(404);
    expect((await post('/api/lessons/first-90-days-l1/complete')).statusCode).toBe(401);
  });

  it('reports progress for one course', async () => {
    const member = await t.loginAs('gold');
    const before = (await t.app.inject({ url: '/api/courses/luxury-market/progress', headers: member.headers })).json();
    expect(before).toMatchObject({ enrolled: false, progress_percent: 0 });
    expect((await t.app.inject({ url: '/api/courses/none/progress', headers: member.headers })).statusCode).toBe(404);
  });
});

describe('where a member stopped in a lesson video', () => {
  const put = (url: string, payload: Record<string, unknown>, headers?: Record<string, string>) =>
    t.app.inject({ method: 'PUT', url, payload, headers });

  it('stores the position for any device, enrols the member, and completes the lesson once most of the video is watched', async () => {
    const member = await t.loginAs('free');
    const early = await put('/api/lessons/first-90-days-l1/position', { position_seconds: 4.5, duration_seconds: 60 }, member.headers);
    expect(early.statusCode).toBe(200);
    expect(early.json()).toMatchObject({ enrolled: true, completed_lesson_ids: [], positions: { 'first-90-days-l1': 4.5 } });

    // Another device (a second session) reads the same position.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: member.email, password: member.password },
    });
    const phone = { authorization: `Bearer ${signIn.json().token}` };
    const progress = (await t.app.inject({ url: '/api/courses/first-90-days/progress', headers: phone })).json();
    expect(progress.positions).toEqual({ 'first-90-days-l1': 4.5 });

    const later = await put('/api/lessons/first-90-days-l1/position', { position_seconds: 55, duration_seconds: 60 }, phone);
    expect(later.json()).toMatchObject({ completed_lesson_ids: ['first-90-days-l1'], progress_percent: 17 });
    const rows = await t.db.select().from(lessonPositions).where(eq(lessonPositions.memberId, member.memberId));
    expect(rows).toEqual([expect.objectContaining({ lessonId: 'first-90-days-l1', positionSeconds: 55, durationSeconds: 60 })]);
    // Watched again from the start: the lesson stays completed, the course started, the new place kept.
    const again = await put('/api/lessons/first-90-days-l1/position', { position_seconds: 3, duration_seconds: 60 }, member.headers);
    expect(again.json()).toMatchObject({
      enrolled: true,
      completed_lesson_ids: ['first-90-days-l1'],
      progress_percent: 17,
      positions: { 'first-90-days-l1': 3 },
    });
  });

  it('refuses a visitor, a lesson above the tier, a lesson without video and a position that makes no sense', async () => {
    const member = await t.loginAs('bronze');
    const body = { position_seconds: 1, duration_seconds: 10 };
    expect((await put('/api/lessons/first-90-days-l1/position', body)).statusCode).toBe(401);
    // A staff session or a token that is no session is not a member's.
    const staff = await t.loginAsStaff();
    expect((await put('/api/lessons/first-90-days-l1/position', body, { authorization: `Bearer ${staff.token}` })).statusCode).toBe(401);
    expect((await put('/api/lessons/first-90-days-l1/position', body, { authorization: 'Bearer not-a-session' })).statusCode).toBe(401);
    const empty = await t.app.inject({
      method: 'PUT',
      url: '/api/lessons/first-90-days-l1/position',
      headers: { ...member.headers, 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toBe('The request body is empty.');
    expect((await put('/api/lessons/luxury-market-l1/position', body, member.headers)).statusCode).toBe(403);
    expect((await put('/api/lessons/no-such-lesson/position', body, member.headers)).statusCode).toBe(404);
    const noVideo = await put('/api/lessons/sphere-of-influence-l2/position', body, member.headers);
    expect(noVideo.statusCode).toBe(409);
    expect(noVideo.json().detail).toBe('This lesson has no video to resume.');
    const past = await put('/api/lessons/first-90-days-l1/position', { position_seconds: 50, duration_seconds: 10 }, member.headers);
    expect(past.statusCode).toBe(400);
    expect(past.json().detail).toMatch(/cannot be past the end of the video/);
    const text = await put('/api/lessons/first-90-days-l1/position', { position_seconds: 'soon', duration_seconds: 10 }, member.headers);
    expect(text.statusCode).toBe(400);
    expect(text.json().detail).toMatch(/The position is a number of seconds/);
  });
});
