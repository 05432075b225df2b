import fs from 'node:fs';
import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffCourse, StaffCourseDetail } from '../../common/courses.contract.ts';
import { PAGE_SIZE } from '../../common/limits.ts';
import { auditLog, certificates } from '../../db/schema.ts';
import { PDF_BYTES, PNG_BYTES } from '../helpers/multipart.ts';
import { uploadAs } from '../helpers/inject-as.ts';
import { INVALID_CURSOR } from '../../server/lists/keyset.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Staff write the catalogue: courses as drafts, published, archived; lessons added, changed,
// reordered and removed; only published courses reach the public API.
let t: TestApp;
let staff: { authorization: string };
let silver: MemberLogin;
let bronze: MemberLogin;
beforeAll(async () => {
  t = await createTestApp();
  staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  silver = await t.loginAs('silver');
  bronze = await t.loginAs('bronze');
});
afterAll(() => t.close());

type Headers = { authorization: string } | Record<string, never>;
const request = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

const COURSE = {
  title: 'Pricing Listings Right',
  description: 'Comparable sales, price bands and the talk with the seller.',
  category: 'sales',
  tier: 'silver',
  instructor: 'Dana Whitfield',
  level: 'intermediate',
  duration: '1h 10m',
};
const LESSON = { title: 'Reading comparables', duration: '12:00', description: 'What a comparable really is.' };

const upload = (name: string, content: Buffer, folder: string, visibility?: string) =>
  uploadAs(t, staff, { folder, name, content, ...(visibility ? { visibility } : {}) });

async function newCourse(overrides: object = {}): Promise<StaffCourseDetail> {
  const created = await request('POST', '/api/admin/courses', staff, { ...COURSE, ...overrides });
  expect(created.statusCode, created.body).toBe(201);
  return created.json();
}

async function addLesson(courseId: string, lesson: object = LESSON): Promise<StaffCourseDetail> {
  const added = await request('POST', `/api/admin/courses/${courseId}/lessons`, staff, lesson);
  expect(added.statusCode, added.body).toBe(201);
  return added.json();
}

describe('who may author', () => {
  it('refuses visitors (401) and members (403) on every staff route', async () => {
    const routes: [Parameters<typeof request>[0], string, object?][] = [
      ['GET', '/api/admin/courses'],
      ['POST', '/api/admin/courses', COURSE],
      ['GET', '/api/admin/courses/first-90-days'],
      ['PATCH', '/api/admin/courses/first-90-days', { title: 'Taken over' }],
      ['POST', '/api/admin/courses/first-90-days/status', { status: 'archived' }],
      ['DELETE', '/api/admin/courses/first-90-days'],
      ['POST', '/api/admin/courses/first-90-days/lessons', LESSON],
      ['PUT', '/api/admin/courses/first-90-days/lesson-order', { lesson_ids: ['first-90-days-l1'] }],
      ['PUT', '/api/admin/lessons/first-90-days-l1', LESSON],
      ['DELETE', '/api/admin/lessons/first-90-days-l1'],
    ];
    for (const [method, url, payload] of routes) {
      expect((await request(method, url, {}, payload)).statusCode, `${method} ${url}`).toBe(401);
      expect((await request(method, url, silver.headers, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await request('GET', '/api/courses/first-90-days')).json().title).toBe('Your First 90 Days in Real Estate');
  });
});

describe('courses', () => {
  it('creates a draft that stays out of the catalogue until published with a lesson', async () => {
    const { course } = await newCourse();
    expect(course).toMatchObject({
      id: 'pricing-listings-right',
      status: 'draft',
      level: 'intermediate',
      certificate: true,
      lesson_count: 0,
    });
    expect(course.thumbnail).toBe('/api/courses/pricing-listings-right/artwork.svg');
    // Not public yet: not listed, not found, no artwork.
    expect((await request('GET', '/api/courses')).json().some((each: { id: string }) => each.id === course.id)).toBe(false);
    expect((await request('GET', `/api/courses/${course.id}`, silver.headers)).statusCode).toBe(404);
    expect((await request('POST', `/api/courses/${course.id}/enrol`, silver.headers)).statusCode).toBe(404);
    // Staff can look at it.
    expect((await request('GET', `/api/courses/${course.id}/artwork.svg`, staff)).statusCode).toBe(200);

    const refused = await request('POST', `/api/admin/courses/${course.id}/status`, staff, { status: 'published' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('Add at least one lesson before publishing the course.');

    await addLesson(course.id);
    const published = await request('POST', `/api/admin/courses/${course.id}/status`, staff, { status: 'published' });
    expect(published.statusCode).toBe(200);
    expect(published.json().course.status).toBe('published');
    const listed = (await request('GET', '/api/courses')).json() as { id: string; lesson_count: number }[];
    expect(listed.find((each) => each.id === course.id)?.lesson_count).toBe(1);
    const artwork = await request('GET', `/api/courses/${course.id}/artwork.svg`);
    expect(artwork.headers['content-type']).toContain('image/svg+xml');
    expect(artwork.body).toContain('Pricing Listings Right');

    // A second course with the same title gets its own address.
    expect((await newCourse()).course.id).toBe('pricing-listings-right-2');
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'course.published')).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ target: course.id, newValue: 'published' });
  });

  it('refuses bad fields with a message, and changes only the fields given', async () => {
    const cases: [object, string][] = [
      [{ ...COURSE, title: '  ' }, 'Title is required'],
      [{ ...COURSE, category: 'astrology' }, 'Category must be sales, marketing, negotiation, specialization or business'],
      [{ ...COURSE, tier: 'platinum' }, 'Tier must be free, bronze, silver or gold'],
      [{ ...COURSE, level: 'expert' }, 'Level must be beginner, intermediate or advanced'],
      [{ ...COURSE, thumbnail_file_id: 'not-an-id' }, 'Thumbnail must be a valid id'],
    ];
    for (const [payload, message] of cases) {
      const refused = await request('POST', '/api/admin/courses', staff, payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toContain(message);
    }
    const { course } = await newCourse({ title: 'Partial Edits' });
    const edited = await request('PATCH', `/api/admin/courses/${course.id}`, staff, { certificate: false, description: 'Now shorter.' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().course).toMatchObject({
      title: 'Partial Edits',
      level: 'intermediate',
      certificate: false,
      description: 'Now shorter.',
    });
    expect((await request('PATCH', '/api/admin/courses/no-such-course', staff, { title: 'x' })).statusCode).toBe(404);
  });

  it('takes a public image from the library as thumbnail, and refuses anything else', async () => {
    const image = await upload('cover.png', PNG_BYTES, 'images');
    const document = await upload('notes.pdf', PDF_BYTES, 'ebooks', 'public');
    const membersImage = await upload('secret.png', PNG_BYTES, 'images', 'gold');
    const { course } = await newCourse({ title: 'With A Cover', thumbnail_file_id: image });
    expect(course.thumbnail).toBe(`/api/files/${image}`);
    expect((await request('GET', course.thumbnail)).statusCode).toBe(200);
    for (const [fileId, message] of [
      [document, 'The thumbnail must be an image.'],
      [membersImage, 'The thumbnail must be an image visible to everyone (public).'],
      ['00000000-0000-4000-8000-000000000000', 'The thumbnail is not in the file library.'],
    ] as const) {
      const refused = await request('PATCH', `/api/admin/courses/${course.id}`, staff, { thumbnail_file_id: fileId });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toBe(message);
    }
  });

  it('archives a course members took: they keep it and their certificate; it cannot be deleted or made a draft', async () => {
    let { course } = await newCourse({ title: 'Short And Sweet', tier: 'bronze' });
    ({ course } = await addLesson(course.id));
    await request('POST', `/api/admin/courses/${course.id}/status`, staff, { status: 'published' });
    const { lessons } = (await request('GET', `/api/admin/courses/${course.id}`, staff)).json() as StaffCourseDetail;
    expect((await request('POST', `/api/courses/${course.id}/enrol`, bronze.headers)).statusCode).toBeLessThan(300);
    const done = await request('POST', `/api/lessons/${lessons[0]!.id}/complete`, bronze.headers);
    expect(done.json().certificate_code).toMatch(/^RP-/);

    const deleted = await request('DELETE', `/api/admin/courses/${course.id}`, staff);
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json().detail).toContain('archive it');
    expect((await request('POST', `/api/admin/courses/${course.id}/status`, staff, { status: 'draft' })).statusCode).toBe(409);
    const archived = await request('POST', `/api/admin/courses/${course.id}/status`, staff, { status: 'archived' });
    expect(archived.json().course).toMatchObject({ status: 'archived', enrolled_count: 1, completed_count: 1, average_progress: 100 });

    // Out of the catalogue and closed to newcomers; open to the member who took it.
    expect((await request('GET', '/api/courses')).json().some((each: { id: string }) => each.id === course.id)).toBe(false);
    expect((await request('GET', `/api/courses/${course.id}`)).statusCode).toBe(404);
    expect((await request('POST', `/api/courses/${course.id}/enrol`, silver.headers)).statusCode).toBe(404);
    expect((await request('GET', `/api/courses/${course.id}`, bronze.headers)).statusCode).toBe(200);
    expect((await request('GET', `/api/courses/${course.id}/progress`, bronze.headers)).json().progress_percent).toBe(100);
    const mine = (await request('GET', '/api/me/certificates', bronze.headers)).json() as { course_id: string }[];
    expect(mine.some((each) => each.course_id === course.id)).toBe(true);

    // A course no one took can be deleted.
    const { course: unused } = await newCourse({ title: 'Never Started' });
    expect((await request('DELETE', `/api/admin/courses/${unused.id}`, staff)).statusCode).toBe(200);
    expect((await request('GET', `/api/admin/courses/${unused.id}`, staff)).statusCode).toBe(404);
  });

  it('issues no certificate for a course without one, and keeps an earned certificate when a lesson is added', async () => {
    let { course } = await newCourse({ title: 'No Paper', tier: 'bronze', certificate: false });
    ({ course } = await addLesson(course.id));
    await request('POST', `/api/admin/courses/${course.id}/status`, staff, { status: 'published' });
    const [lesson] = ((await request('GET', `/api/admin/courses/${course.id}`, staff)).json() as StaffCourseDetail).lessons;
    await request('POST', `/api/courses/${course.id}/enrol`, bronze.headers);
    const done = await request('POST', `/api/lessons/${lesson!.id}/complete`, bronze.headers);
    expect(done.json()).toMatchObject({ progress_percent: 100, certificate_code: null });

    let { course: withPaper } = await newCourse({ title: 'With Paper', tier: 'bronze' });
    ({ course: withPaper } = await addLesson(withPaper.id));
    await request('POST', `/api/admin/courses/${withPaper.id}/status`, staff, { status: 'published' });
    const [first] = ((await request('GET', `/api/admin/courses/${withPaper.id}`, staff)).json() as StaffCourseDetail).lessons;
    await request('POST', `/api/courses/${withPaper.id}/enrol`, bronze.headers);
    const code = (await request('POST', `/api/lessons/${first!.id}/complete`, bronze.headers)).json().certificate_code;
    await addLesson(withPaper.id, { ...LESSON, title: 'A new chapter' });
    const progress = (await request('GET', `/api/courses/${withPaper.id}/progress`, bronze.headers)).json();
    expect(progress).toMatchObject({ progress_percent: 50, certificate_code: code });
    expect(await t.db.select().from(certificates).where(eq(certificates.code, code))).toHaveLength(1);

    // Removing the only lesson a member had left finishes the course for them: the certificate follows.
    const removed = await request('GET', `/api/admin/courses/${withPaper.id}`, staff);
    const added = (removed.json() as StaffCourseDetail).lessons.find((lesson) => lesson.title === 'A new chapter')!;
    const other = await t.loginAs('bronze');
    await request('POST', `/api/courses/${withPaper.id}/enrol`, other.headers);
    await request('POST', `/api/lessons/${first!.id}/complete`, other.headers);
    expect((await request('GET', `/api/courses/${withPaper.id}/progress`, other.headers)).json().certificate_code).toBeNull();
    expect((await request('DELETE', `/api/admin/lessons/${added.id}`, staff)).statusCode).toBe(200);
    const finished = (await request('GET', `/api/courses/${withPaper.id}/progress`, other.headers)).json();
    expect(finished).toMatchObject({ progress_percent: 100, certificate_code: expect.stringMatching(/^RP-/) });
    expect(await t.db.select().from(certificates).where(eq(certificates.memberId, other.memberId))).toHaveLength(1);
  });
});

describe('lessons', () => {
  it('adds lessons with an uploaded video, a preview flag and attachments, reorders and removes them', async () => {
    const video = await upload(
      'walkthrough.webm',
      fs.readFileSync(path.resolve('db/seed/files/lessons/lesson-preview-1.webm')),
      'videos',
      'silver',
    );
    const handout = await upload('handout.pdf', PDF_BYTES, 'templates', 'silver');
    let { course } = await newCourse({ title: 'Lesson Workshop' });
    await addLesson(course.id, { ...LESSON, title: 'Welcome', free_preview: true, video_url: 'https://videos.example.com/welcome' });
    const withVideo = await addLesson(course.id, { ...LESSON, title: 'The method', video_file_id: video, attachment_file_ids: [handout] });
    course = withVideo.course;
    expect(withVideo.lessons.map((lesson) => lesson.title)).toEqual(['Welcome', 'The method']);
    expect(withVideo.lessons[1]).toMatchObject({ video_file_id: video, attachments: [{ id: handout, name: 'handout.pdf' }] });
    await request('POST', `/api/admin/courses/${course.id}/status`, staff, { status: 'published' });

    // A visitor sees the preview's video only; a Silver member gets both, and the attachment.
    const asVisitor = (await request('GET', `/api/courses/${course.id}/lessons`)).json();
    expect(asVisitor.map((lesson: { video_url: string | null }) => lesson.video_url)).toEqual(['https://videos.example.com/welcome', null]);
    expect(asVisitor[1].attachments).toEqual([{ name: 'handout.pdf', url: null }]);
    const asSilver = (await request('GET', `/api/courses/${course.id}/lessons`, silver.headers)).json();
    expect(asSilver[1].video_url).toBe(`/api/lessons/${withVideo.lessons[1]!.id}/video`);
    expect(asSilver[1].attachments[0].url).toBe(`/api/files/${handout}`);
    expect((await request('GET', asSilver[1].video_url, silver.headers)).statusCode).toBe(200);
    expect((await request('GET', asSilver[1].video_url, bronze.headers)).statusCode).toBe(403);

    const refused = [
      [{ ...LESSON, video_file_id: handout }, 'The lesson video must be a video file.'],
      [{ ...LESSON, video_file_id: video, video_url: 'https://videos.example.com/x' }, 'Choose an uploaded video or a video URL, not both'],
      [{ ...LESSON, video_url: 'javascript:alert(1)' }, 'Video URL must start with https://'],
      [{ ...LESSON, duration: '' }, 'Duration is required'],
    ] as const;
    for (const [payload, message] of refused) {
      const answer = await request('POST', `/api/admin/courses/${course.id}/lessons`, staff, payload);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().detail).toContain(message);
    }

    const [welcome, method] = withVideo.lessons;
    const reordered = await request('PUT', `/api/admin/courses/${course.id}/lesson-order`, staff, {
      lesson_ids: [method!.id, welcome!.id],
    });
    expect(reordered.json().lessons.map((lesson: { title: string }) => lesson.title)).toEqual(['The method', 'Welcome']);
    const publicOrder = (await request('GET', `/api/courses/${course.id}/lessons`)).json();
    expect(publicOrder.map((lesson: { title: string }) => lesson.title)).toEqual(['The method', 'Welcome']);
    const incomplete = await request('PUT', `/api/admin/courses/${course.id}/lesson-order`, staff, { lesson_ids: [method!.id] });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().detail).toBe('Give every lesson of the course exactly once, in the new order.');

    const edited = await request('PUT', `/api/admin/lessons/${welcome!.id}`, staff, { ...LESSON, title: 'Welcome aboard' });
    expect(edited.json().lessons[1]).toMatchObject({ title: 'Welcome aboard', free_preview: false, video_url: '' });
    const removed = await request('DELETE', `/api/admin/lessons/${welcome!.id}`, staff);
    expect(removed.json().lessons.map((lesson: { title: string }) => lesson.title)).toEqual(['The method']);
    expect((await request('DELETE', `/api/admin/lessons/${welcome!.id}`, staff)).statusCode).toBe(404);
    // A published course keeps at least one lesson.
    const last = await request('DELETE', `/api/admin/lessons/${method!.id}`, staff);
    expect(last.statusCode).toBe(409);
    expect(last.json().detail).toContain('A published course needs at least one lesson');
  });
});

describe('file library', () => {
  it('renames a file keeping its ending, and deletes it only when nothing uses it', async () => {
    const image = await upload('cover.png', PNG_BYTES, 'images');
    const { course } = await newCourse({ title: 'Uses A Cover', thumbnail_file_id: image });
    const inUse = await request('DELETE', `/api/admin/files/${image}`, staff);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().detail).toBe(`This file is in use as the thumbnail of the course “Uses A Cover”. Choose another file there first.`);

    const wrongEnding = await request('PATCH', `/api/admin/files/${image}`, staff, { filename: 'cover.jpg' });
    expect(wrongEnding.statusCode).toBe(400);
    expect(wrongEnding.json().detail).toBe('Keep the .png ending: it says what kind of file this is.');
    const renamed = await request('PATCH', `/api/admin/files/${image}`, staff, { filename: 'Spring cover.png' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().filename).toBe('Spring cover.png');
    expect((await request('PATCH', `/api/admin/files/${image}`, silver.headers, { filename: 'x.png' })).statusCode).toBe(403);

    await request('PATCH', `/api/admin/courses/${course.id}`, staff, { thumbnail_file_id: null });
    expect((await request('DELETE', `/api/admin/files/${image}`, silver.headers)).statusCode).toBe(403);
    expect((await request('DELETE', `/api/admin/files/${image}`, staff)).statusCode).toBe(200);
    expect((await request('GET', `/api/files/${image}`, staff)).statusCode).toBe(404);
    expect((await request('DELETE', `/api/admin/files/${image}`, staff)).statusCode).toBe(404);
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'file.delete')).orderBy(desc(auditLog.id)).limit(1);
    expect(entry?.target).toBe('images/Spring cover.png');
  });

  it('serves an uploaded image as smaller WebP copies for the width asked, kept by caches for a week', async () => {
    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#7f1d1d' } })
      .png()
      .toBuffer();
    const image = await upload('listing-photo.png', photo, 'images');
    for (const [asked, width] of [
      [640, 640],
      [100, 320],
      [1000, 1280],
    ] as const) {
      const served = await request('GET', `/api/files/${image}?w=${asked}`);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=604800');
      expect((await sharp(served.rawPayload).metadata()).width).toBe(width);
    }
    // Wider than every copy: the upload itself.
    const original = await request('GET', `/api/files/${image}?w=1500`);
    expect(original.headers['content-type']).toBe('image/png');
    const refused = await request('GET', `/api/files/${image}?w=huge`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain('w must be a width in pixels');

    // A members-only image's copies are members-only too.
    const secret = await upload('secret-plan.png', photo, 'images', 'gold');
    expect((await request('GET', `/api/files/${secret}?w=320`)).statusCode).toBe(401);
    expect((await request('GET', `/api/files/${secret}?w=320`, silver.headers)).statusCode).toBe(403);
    const forStaff = await request('GET', `/api/files/${secret}?w=320`, staff);
    expect(forStaff.headers['cache-control']).toBe('private, no-store');
  });
});

describe("the staff's course list", () => {
  /** Every page from the first, following `Link: <...>; rel="next"`, as the API answers them. */
  async function everyPage(): Promise<{ courses: StaffCourse[]; next: string | null }[]> {
    const pages: { courses: StaffCourse[]; next: string | null }[] = [];
    let url: string | null = '/api/admin/courses';
    while (url && pages.length < 20) {
      const response = await request('GET', url, staff);
      expect(response.statusCode, response.body).toBe(200);
      const link = response.headers.link as string | undefined;
      const next = link ? /^<(\/api\/admin\/courses\?before=[\w-]+)>; rel="next"$/.exec(link)?.[1] : undefined;
      if (link) expect(next, link).toBeDefined();
      pages.push({ courses: response.json(), next: next ?? null });
      url = next ?? null;
    }
    return pages;
  }

  it('is a page at a time in catalogue order, every course once, with the learners of each page', async () => {
    // Enough courses for three pages: some on one position with the same title (the id breaks the
    // tie), some with titles as long as allowed in letters of several bytes (the page link stays short).
    await t.db.execute(sql`
      insert into courses (id, title, description, category, tier, thumbnail, duration, instructor, status, position)
      select 'paged-course-' || lpad(g::text, 3, '0'),
             case when g % 4 = 0 then 'Same Title' when g % 4 = 1 then repeat('Ü', 146) || lpad(g::text, 4, '0') else 'Paged ' || (200 - g) end,
             'A course of the paging test.', 'sales', 'free', '/images/paged.webp', '1h', 'Page Turner', 'draft',
             case when g % 3 = 0 then 1000 else 500 end
      from generate_series(1, ${PAGE_SIZE.staffList * 2 + 5}) as g`);
    const learner = await t.loginAs('bronze');
    const expected = (
      (await t.db.execute(sql`select id from courses order by position, title, id`)) as unknown as { rows: { id: string }[] }
    ).rows;
    const onSecondPage = expected[PAGE_SIZE.staffList + 3]!.id;
    await t.db.execute(sql`insert into enrolments (member_id, course_id) values (${learner.memberId}, ${onSecondPage})`);

    const pages = await everyPage();
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages.slice(0, -1)) expect(page.courses).toHaveLength(PAGE_SIZE.staffList);
    expect(pages.at(-1)!.courses.length).toBeLessThanOrEqual(PAGE_SIZE.staffList);
    expect(pages.at(-1)!.next).toBeNull();
    const shown = pages.flatMap((page) => page.courses.map((course) => course.id));
    expect(shown).toEqual(expected.map((row) => row.id));
    expect(new Set(shown).size).toBe(shown.length);
    // The first page is the list as it always began: the catalogue's first courses.
    expect(pages[0]!.courses[0]!.id).toBe(expected[0]!.id);

    // A later page carries its courses' figures.
    const counted = pages[1]!.courses.find((course) => course.id === onSecondPage)!;
    expect(counted).toMatchObject({ enrolled_count: 1, completed_count: 0, status: 'draft', lesson_count: 0 });
    expect(
      pages.flatMap((page) => page.courses).filter((course) => course.enrolled_count > 0 && course.id.startsWith('paged-')),
    ).toHaveLength(1);
  });

  it('refuses a broken page link, and one whose course is gone, with a 400 that says to start again', async () => {
    for (const cursor of ['abc', Buffer.from('["x"]').toString('base64url'), Buffer.from('[1.5,"first-90-days"]').toString('base64url')]) {
      const refused = await request('GET', `/api/admin/courses?before=${cursor}`, staff);
      expect(refused.statusCode, cursor).toBe(400);
      expect(refused.json().detail).toBe(INVALID_CURSOR);
    }
    const [first] = await everyPage();
    const lastShown = first!.courses.at(-1)!;
    expect(first!.next).not.toBeNull();
    const deleted = await request('DELETE', `/api/admin/courses/${lastShown.id}`, staff);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const stale = await request('GET', first!.next!, staff);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().detail).toBe(INVALID_CURSOR);
  });
});
