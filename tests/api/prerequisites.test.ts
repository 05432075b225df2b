import fs from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolments } from '../../db/schema.ts';
import type { Course, Lesson, StaffCourseDetail } from '../../common/courses.contract.ts';
import { injectAs, uploadAs, type ViewerHeaders } from '../helpers/inject-as.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// Prerequisites (issue: 'Learning that counts'): a course may build on another, which a member
// completes first; until then its lessons, videos, files and quizzes stay closed to them (free
// previews aside), and enrolling is refused with what to complete first. An owner may open it to one
// member early, with a reason the activity log keeps.

let t: TestApp;
let owner: ViewerHeaders;
let editor: ViewerHeaders;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  owner = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'owner' })).token}` };
  editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
});
afterAll(() => t.close());

const request = injectAs(() => t);
// A real short video: uploads are checked by their content.
const WEBM = fs.readFileSync(path.resolve('db/seed/files/lessons/lesson-preview-2.webm'));

const uploaded = (folder: string, name: string, content: Buffer) => uploadAs(t, owner, { folder, name, content, visibility: 'free' });

/** A published free course with a stored video lesson, an attachment and a free preview; building on `prerequisite` if given. */
async function course(title: string, prerequisite: string | null = null) {
  const created = await request('POST', '/api/admin/courses', owner, {
    title: `${title} ${Date.now()} ${Math.random()}`,
    description: 'Step by step.',
    category: 'sales',
    tier: 'free',
    instructor: 'Dana Whitfield',
    level: 'beginner',
    duration: '1h',
    prerequisite_course_id: prerequisite,
  });
  expect(created.statusCode, created.body).toBe(201);
  const { course } = created.json() as StaffCourseDetail;
  const video = await uploaded('videos', 'lesson.webm', WEBM);
  const handout = await uploaded('course-materials', 'handout.txt', Buffer.from('Bring three comparable sales.'));
  for (const lesson of [
    { title: 'Preview', duration: '2:00', video_url: 'https://videos.example.com/preview.mp4', free_preview: true },
    { title: 'The lesson', duration: '10:00', video_file_id: video, attachment_file_ids: [handout] },
  ]) {
    const added = await request('POST', `/api/admin/courses/${course.id}/lessons`, owner, lesson);
    expect(added.statusCode, added.body).toBe(201);
  }
  expect((await request('POST', `/api/admin/courses/${course.id}/status`, owner, { status: 'published' })).statusCode).toBe(200);
  const lessons = (await request('GET', `/api/courses/${course.id}/lessons`, owner)).json() as Lesson[];
  return { id: course.id, title: course.title, lessons, video, handout };
}

async function completeCourse(member: ViewerHeaders, courseId: string, lessons: Lesson[]) {
  expect((await request('POST', `/api/courses/${courseId}/enrol`, member)).statusCode).toBe(200);
  for (const lesson of lessons) expect((await request('POST', `/api/lessons/${lesson.id}/complete`, member)).statusCode).toBe(200);
}

describe('a course that builds on another', () => {
  it('is studied once the member completed the other: lessons, videos, files and enrolling wait, a free preview does not', async () => {
    const basics = await course('Listing Basics');
    const advanced = await course('Advanced Listings', basics.id);
    const member = (await t.loginAs('free')).headers;

    const shown = (await request('GET', `/api/courses/${advanced.id}`, member)).json() as Course;
    expect(shown.prerequisite).toEqual({ id: basics.id, title: basics.title });
    const closed = (await request('GET', `/api/courses/${advanced.id}/lessons`, member)).json() as Lesson[];
    expect(closed.find((lesson) => lesson.title === 'Preview')!.video_url).toBe('https://videos.example.com/preview.mp4');
    const lesson = closed.find((each) => each.title === 'The lesson')!;
    expect(lesson.video_url).toBeNull();
    expect(lesson.attachments.map((file) => file.url)).toEqual([null]);

    const message = `Complete “${basics.title}” first: this course builds on it.`;
    const enrol = await request('POST', `/api/courses/${advanced.id}/enrol`, member);
    expect(enrol.statusCode).toBe(403);
    expect(enrol.json().detail).toBe(message);
    for (const url of [`/api/lessons/${lesson.id}/video`, `/api/files/${advanced.video}`, `/api/files/${advanced.handout}`]) {
      const refused = await request('GET', url, member);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().detail).toBe(message);
    }
    // Completing or watching a lesson would start the course: refused the same way.
    expect((await request('POST', `/api/lessons/${lesson.id}/complete`, member)).statusCode).toBe(403);
    const position = await request('PUT', `/api/lessons/${lesson.id}/position`, member, { position_seconds: 5, duration_seconds: 600 });
    expect(position.statusCode).toBe(403);
    const [started] = await t.db.select({ value: count() }).from(enrolments).where(eq(enrolments.courseId, advanced.id));
    expect(started!.value).toBe(0);

    await completeCourse(member, basics.id, basics.lessons);
    expect((await request('POST', `/api/courses/${advanced.id}/enrol`, member)).statusCode).toBe(200);
    const open = (await request('GET', `/api/courses/${advanced.id}/lessons`, member)).json() as Lesson[];
    expect(open.find((each) => each.title === 'The lesson')!.video_url).toBe(`/api/lessons/${lesson.id}/video`);
    expect((await request('GET', `/api/files/${advanced.handout}`, member)).statusCode).toBe(200);
  });

  it('keeps a member going who started it before it required the other, and asks nothing once the other is withdrawn', async () => {
    const basics = await course('Pricing Basics');
    const advanced = await course('Pricing Advanced');
    const early = (await t.loginAs('free')).headers;
    expect((await request('POST', `/api/courses/${advanced.id}/enrol`, early)).statusCode).toBe(200);
    expect((await request('PATCH', `/api/admin/courses/${advanced.id}`, owner, { prerequisite_course_id: basics.id })).statusCode).toBe(
      200,
    );

    const lesson = advanced.lessons.find((each) => each.title === 'The lesson')!;
    expect((await request('POST', `/api/lessons/${lesson.id}/complete`, early)).statusCode).toBe(200);
    const newcomer = (await t.loginAs('free')).headers;
    expect((await request('POST', `/api/courses/${advanced.id}/enrol`, newcomer)).statusCode).toBe(403);

    // The other course archived: no one could complete it now, so it no longer stands in the way.
    expect((await request('POST', `/api/admin/courses/${basics.id}/status`, owner, { status: 'archived' })).statusCode).toBe(200);
    expect(((await request('GET', `/api/courses/${advanced.id}`, newcomer)).json() as Course).prerequisite).toBeNull();
    expect((await request('POST', `/api/courses/${advanced.id}/enrol`, newcomer)).statusCode).toBe(200);
  });

  it('is opened early to one member by an owner, once, with the reason in the activity log; not by an editor', async () => {
    const basics = await course('Contract Basics');
    const advanced = await course('Contract Advanced', basics.id);
    const member = await t.loginAs('free');
    const other = (await t.loginAs('free')).headers;
    const open = (headers: ViewerHeaders, body: object) =>
      request('POST', `/api/admin/members/${member.memberId}/early-openings`, headers, body);
    const reason = 'Licensed broker for 12 years: the basics are behind her.';

    expect((await open(editor, { course_id: advanced.id, reason })).statusCode).toBe(403);
    expect((await open(owner, { course_id: advanced.id, reason: '' })).statusCode).toBe(400);
    const wrong = await open(owner, { course_id: basics.id, reason });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe(
      `“${basics.title}” builds on no other course and opens every lesson at once: it is open to every member its plan reaches.`,
    );

    const opened = await open(owner, { course_id: advanced.id, reason });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toEqual({
      member_id: member.memberId,
      course_id: advanced.id,
      course_title: advanced.title,
      lesson_id: null,
      lesson_title: null,
      reason,
    });
    expect((await open(owner, { course_id: advanced.id, reason })).statusCode).toBe(409);

    expect((await request('POST', `/api/courses/${advanced.id}/enrol`, member.headers)).statusCode).toBe(200);
    expect((await request('POST', `/api/courses/${advanced.id}/enrol`, other)).statusCode).toBe(403);
    const detail = (await request('GET', `/api/admin/members/${member.memberId}`, owner)).json() as {
      activity: { action: string; new_value: unknown }[];
    };
    expect(detail.activity.find((entry) => entry.action === 'course.opened_early')?.new_value).toEqual({ course: advanced.id, reason });
  });

  it('is chosen by staff among other courses, never itself nor one that builds on it, however far back', async () => {
    const first = await course('Chain One');
    const second = await course('Chain Two', first.id);
    const third = await course('Chain Three', second.id);
    const set = (courseId: string, prerequisite: string | null) =>
      request('PATCH', `/api/admin/courses/${courseId}`, owner, { prerequisite_course_id: prerequisite });

    const itself = await set(first.id, first.id);
    expect(itself.statusCode).toBe(400);
    expect(itself.json().detail).toBe('A course cannot build on itself.');
    const loop = await set(first.id, third.id);
    expect(loop.statusCode).toBe(400);
    expect(loop.json().detail).toBe(`“${third.title}” builds on this course already: neither could be started.`);
    expect((await set(first.id, 'no-such-course')).statusCode).toBe(400);
    const staffView = (await set(third.id, null)).json() as StaffCourseDetail;
    expect(staffView.course.prerequisite_course_id).toBeNull();
    expect(((await set(third.id, first.id)).json() as StaffCourseDetail).course.prerequisite_course_id).toBe(first.id);
    // The other fields of the same form are saved alongside.
    const scored = await request('PATCH', `/api/admin/courses/${third.id}`, owner, {
      certificate_shows_score: true,
      prerequisite_course_id: second.id,
    });
    expect((scored.json() as StaffCourseDetail).course).toMatchObject({ certificate_shows_score: true, prerequisite_course_id: second.id });
  });
});
