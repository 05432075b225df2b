import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lesson, StaffCourseDetail } from '../../common/courses.contract.ts';
import { addDays, formatDateInZone, instantOf, localDateOf } from '../../common/time-zones.ts';
import { auditLog, enrolments, members, notifications } from '../../db/schema.ts';
import { tellLessonOpenings } from '../../server/courses/lesson-openings.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { injectAs, uploadAs, type ViewerHeaders } from '../helpers/inject-as.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Drip (issue: 'Learning that counts'): a lesson opens a number of days after the member started its
// course, or on a date, at midnight in the member's time; until then its video, files, completion
// and quiz wait, the course page says when, and the member is told once when it opens.

let t: TestApp;
let staff: ViewerHeaders;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
});
afterAll(() => t.close());

const request = injectAs(() => t);
const WEBM = fs.readFileSync(path.resolve('db/seed/files/lessons/lesson-preview-2.webm'));
const ZONE = 'America/Los_Angeles';

const uploaded = (folder: string, name: string, content: Buffer) => uploadAs(t, staff, { folder, name, content, visibility: 'free' });

/** A published free course: an open lesson, one 3 days after the start (a stored video, a handout), one on a date. */
async function drippedCourse(opensOn = '2099-01-01') {
  const created = await request('POST', '/api/admin/courses', staff, {
    title: `Drip ${Date.now()} ${Math.random()}`,
    description: 'A lesson a few days.',
    category: 'sales',
    tier: 'free',
    instructor: 'Dana Whitfield',
    level: 'beginner',
    duration: '1h',
  });
  const courseId = (created.json() as StaffCourseDetail).course.id;
  const video = await uploaded('videos', 'week-two.webm', WEBM);
  const handout = await uploaded('course-materials', 'week-two.txt', Buffer.from('Call ten past clients.'));
  for (const lesson of [
    { title: 'Day one', duration: '5:00', video_url: 'https://videos.example.com/day-one.mp4' },
    { title: 'Day three', duration: '5:00', video_file_id: video, attachment_file_ids: [handout], opens_after_days: 3 },
    { title: 'New year', duration: '5:00', video_url: 'https://videos.example.com/new-year.mp4', opens_on: opensOn },
  ]) {
    const added = await request('POST', `/api/admin/courses/${courseId}/lessons`, staff, lesson);
    expect(added.statusCode, added.body).toBe(201);
  }
  expect((await request('POST', `/api/admin/courses/${courseId}/status`, staff, { status: 'published' })).statusCode).toBe(200);
  const lessons = (await request('GET', `/api/courses/${courseId}/lessons`, staff)).json() as Lesson[];
  const byTitle = (title: string) => lessons.find((lesson) => lesson.title === title)!;
  return { courseId, video, handout, dayOne: byTitle('Day one'), dayThree: byTitle('Day three'), newYear: byTitle('New year') };
}

async function memberIn(zone: string): Promise<MemberLogin> {
  const member = await t.loginAs('free');
  await t.db.update(members).set({ timeZone: zone }).where(eq(members.id, member.memberId));
  return member;
}

const startedAgo = (member: MemberLogin, courseId: string, days: number) =>
  t.db
    .update(enrolments)
    .set({ enrolledAt: sql`now() - make_interval(days => ${days})` })
    .where(and(eq(enrolments.memberId, member.memberId), eq(enrolments.courseId, courseId)));

const midnight = (date: string, zone: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return instantOf({ year, month, day, hour: 0, minute: 0 }, zone);
};

describe('a dripped lesson', () => {
  it('opens days after the member started, at midnight in their time: until then its video, files and completion wait, and the page says when', async () => {
    const course = await drippedCourse();
    const member = await memberIn(ZONE);
    const lessonsOf = async (headers: ViewerHeaders) =>
      ((await request('GET', `/api/courses/${course.courseId}/lessons`, headers)).json() as Lesson[]).reduce<Record<string, Lesson>>(
        (all, lesson) => ({ ...all, [lesson.title]: lesson }),
        {},
      );

    // Before the start: 'three days after you start'.
    expect((await lessonsOf(member.headers))['Day three']!.opens).toEqual({ at: null, days_after_start: 3 });
    expect((await request('POST', `/api/courses/${course.courseId}/enrol`, member.headers)).statusCode).toBe(200);
    const started = (await t.db.select().from(enrolments).where(eq(enrolments.memberId, member.memberId)))[0]!.enrolledAt;
    const opensAt = midnight(addDays(localDateOf(started, ZONE), 3), ZONE);

    const closed = await lessonsOf(member.headers);
    expect(closed['Day one']!.opens).toBeNull();
    expect(closed['Day one']!.video_url).toBe('https://videos.example.com/day-one.mp4');
    expect(closed['Day three']!.opens).toEqual({ at: opensAt.toISOString(), days_after_start: 3 });
    expect(closed['Day three']!.video_url).toBeNull();
    expect(closed['Day three']!.attachments.map((file) => file.url)).toEqual([null]);
    expect(closed['New year']!.opens).toEqual({ at: midnight('2099-01-01', ZONE).toISOString(), days_after_start: null });

    const message = `This lesson opens on ${formatDateInZone(opensAt, ZONE)}.`;
    for (const url of [`/api/lessons/${course.dayThree.id}/video`, `/api/files/${course.video}`, `/api/files/${course.handout}`]) {
      const refused = await request('GET', url, member.headers);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().detail).toBe(message);
    }
    const complete = await request('POST', `/api/lessons/${course.dayThree.id}/complete`, member.headers);
    expect(complete.statusCode).toBe(403);
    expect(complete.json().detail).toBe(message);
    expect(
      (await request('PUT', `/api/lessons/${course.dayThree.id}/position`, member.headers, { position_seconds: 2, duration_seconds: 6 }))
        .statusCode,
    ).toBe(403);
    expect((await request('POST', `/api/lessons/${course.newYear.id}/complete`, member.headers)).json().detail).toBe(
      `This lesson opens on ${formatDateInZone(midnight('2099-01-01', ZONE), ZONE)}.`,
    );
    // Staff see every lesson.
    expect((await lessonsOf(staff))['Day three']!.video_url).toBe(`/api/lessons/${course.dayThree.id}/video`);

    // Four days later, it is open.
    await startedAgo(member, course.courseId, 4);
    const open = await lessonsOf(member.headers);
    expect(open['Day three']!.opens).toBeNull();
    expect(open['Day three']!.video_url).toBe(`/api/lessons/${course.dayThree.id}/video`);
    expect((await request('GET', `/api/files/${course.handout}`, member.headers)).statusCode).toBe(200);
    expect((await request('POST', `/api/lessons/${course.dayThree.id}/complete`, member.headers)).statusCode).toBe(200);
  });

  it('is counted from midnight in the member’s own time: the same start opens it a zone’s hours apart', async () => {
    const course = await drippedCourse();
    const tokyo = await memberIn('Asia/Tokyo');
    const hawaii = await memberIn('Pacific/Honolulu');
    for (const member of [tokyo, hawaii])
      expect((await request('POST', `/api/courses/${course.courseId}/enrol`, member.headers)).statusCode).toBe(200);
    const opensOf = async (member: MemberLogin) =>
      ((await request('GET', `/api/courses/${course.courseId}/lessons`, member.headers)).json() as Lesson[]).find(
        (lesson) => lesson.title === 'New year',
      )!.opens!.at;
    expect(await opensOf(tokyo)).toBe('2098-12-31T15:00:00.000Z');
    expect(await opensOf(hawaii)).toBe('2099-01-01T10:00:00.000Z');
  });

  it('is told to its member once when it opens, though two processes look at once; not to one who started after it opened', async () => {
    const today = localDateOf(new Date(), 'UTC');
    const course = await drippedCourse(today);
    const member = await memberIn('UTC');
    const late = await memberIn('UTC');
    for (const each of [member, late])
      expect((await request('POST', `/api/courses/${course.courseId}/enrol`, each.headers)).statusCode).toBe(200);
    await startedAgo(member, course.courseId, 2);

    const mailer = createMailer({ publicUrl: 'http://localhost', nudge: () => {} });
    await Promise.all([tellLessonOpenings(createDataAccess(t.db), mailer), tellLessonOpenings(createDataAccess(t.db), mailer)]);
    await tellLessonOpenings(createDataAccess(t.db), mailer);
    const told = (memberId: string) =>
      t.db
        .select({ title: notifications.title, url: notifications.url })
        .from(notifications)
        .where(and(eq(notifications.memberId, memberId), eq(notifications.groupKey, `lesson-open:${course.newYear.id}`)));
    expect(await told(member.memberId)).toEqual([{ title: 'Now open: New year', url: `/courses/${course.courseId}` }]);
    // Started today, after midnight: the lesson was open when they came; no news.
    expect(await told(late.memberId)).toEqual([]);
  });

  it('is open at once to a member an owner opened the course early for', async () => {
    const course = await drippedCourse();
    const member = await memberIn(ZONE);
    const owner = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'owner' })).token}` };
    const opened = await request('POST', `/api/admin/members/${member.memberId}/early-openings`, owner, {
      course_id: course.courseId,
      reason: 'Took the live version of this course last spring.',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    expect((await request('POST', `/api/courses/${course.courseId}/enrol`, member.headers)).statusCode).toBe(200);
    const lessons = (await request('GET', `/api/courses/${course.courseId}/lessons`, member.headers)).json() as Lesson[];
    expect(lessons.map((lesson) => lesson.opens)).toEqual([null, null, null]);
    expect((await request('POST', `/api/lessons/${course.newYear.id}/complete`, member.headers)).statusCode).toBe(200);
    // The member's data holds it, with the reason.
    const exported = (await request('GET', '/api/account/export', member.headers)).json() as { courses_opened_early: unknown[] };
    expect(exported.courses_opened_early).toEqual([
      { course_id: course.courseId, opened_at: expect.any(String), reason: 'Took the live version of this course last spring.' },
    ]);
  });

  it('opens alone, at once, to a member an owner opened that lesson early for, and the others keep their days', async () => {
    const course = await drippedCourse();
    const member = await memberIn(ZONE);
    const owner = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'owner' })).token}` };
    const open = (lesson_id: string | null) =>
      request('POST', `/api/admin/members/${member.memberId}/early-openings`, owner, {
        course_id: course.courseId,
        lesson_id,
        reason: 'Presented this module at our office meeting.',
      });
    // Only a lesson of the course that opens on a later day.
    expect((await open(course.dayOne.id)).json().detail).toBe(
      `Choose a lesson of “${(await request('GET', `/api/courses/${course.courseId}`, owner)).json().title}” that opens on a later day.`,
    );
    const opened = await open(course.newYear.id);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toMatchObject({ lesson_id: course.newYear.id, lesson_title: 'New year' });
    expect((await open(course.newYear.id)).statusCode).toBe(409);
    // An editor may not.
    const editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
    expect(
      (
        await request('POST', `/api/admin/members/${member.memberId}/early-openings`, editor, {
          course_id: course.courseId,
          lesson_id: course.newYear.id,
          reason: 'x',
        })
      ).statusCode,
    ).toBe(403);

    expect((await request('POST', `/api/courses/${course.courseId}/enrol`, member.headers)).statusCode).toBe(200);
    const lessons = (await request('GET', `/api/courses/${course.courseId}/lessons`, member.headers)).json() as Lesson[];
    expect(lessons.map((lesson) => lesson.opens === null)).toEqual([true, false, true]);
    expect((await request('POST', `/api/lessons/${course.newYear.id}/complete`, member.headers)).statusCode).toBe(200);
    expect((await request('POST', `/api/lessons/${course.dayThree.id}/complete`, member.headers)).statusCode).toBe(403);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'lesson.opened_early'), eq(auditLog.target, member.email)));
    expect(entry?.newValue).toMatchObject({ lesson: course.newYear.id });
    const exported = (await request('GET', '/api/account/export', member.headers)).json() as { lessons_opened_early: unknown[] };
    expect(exported.lessons_opened_early).toEqual([
      { lesson_id: course.newYear.id, opened_at: expect.any(String), reason: 'Presented this module at our office meeting.' },
    ]);
  });

  it('is written by staff with days after the start or a date, not both', async () => {
    const course = await drippedCourse();
    const edit = (body: object) =>
      request('PUT', `/api/admin/lessons/${course.dayOne.id}`, staff, { title: 'Day one', duration: '5:00', ...body });
    const both = await edit({ opens_after_days: 2, opens_on: '2099-02-01' });
    expect(both.statusCode).toBe(400);
    expect(both.json().detail).toBe('A lesson opens a number of days after the start or on a date, not both');
    expect((await edit({ opens_after_days: 0 })).statusCode).toBe(400);
    expect((await edit({ opens_after_days: 366 })).statusCode).toBe(400);
    expect((await edit({ opens_on: '2099-13-01' })).statusCode).toBe(400);
    const saved = (await edit({ opens_after_days: 7 })).json() as StaffCourseDetail;
    expect(saved.lessons.find((lesson) => lesson.id === course.dayOne.id)).toMatchObject({ opens_after_days: 7, opens_on: null });
  });
});
