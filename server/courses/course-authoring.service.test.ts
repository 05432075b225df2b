import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { COURSE_NOT_FOUND, type CourseInput, type LessonInput } from '../../common/courses.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import { certificates, members, uploadedFiles } from '../../db/schema.ts';
import { DEFAULT_TIME_ZONE, localDateOf } from '../../common/time-zones.ts';
import { lastAuditEntry, refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';
import { createDataAccess } from '../repositories.ts';
import { endEarlyAccess } from './early-access.ts';

// Staff write the catalogue: courses start as drafts; lessons are added, changed, reordered and
// removed; what members started is never taken from them.

const t = serviceTestApp();
let editor: Viewer;
beforeAll(async () => {
  editor = await t.asStaff('editor');
});

const authoring = () => t.app.services.courseAuthoring;
const COURSE: CourseInput = {
  title: 'Pricing Listings Right',
  description: 'Comparable sales, price bands and the talk with the seller.',
  category: 'sales',
  tier: 'bronze',
  instructor: 'Dana Whitfield',
  level: 'intermediate',
  duration: '1h 10m',
  certificate: true,
  certificate_shows_score: false,
  thumbnail_file_id: null,
  early_access_until: null,
  prerequisite_course_id: null,
};
const lesson = (title: string, extra: Partial<LessonInput> = {}): LessonInput => ({
  kind: 'video',
  captions: [],
  title,
  duration: '12:00',
  description: '',
  free_preview: false,
  video_url: '',
  video_file_id: null,
  attachment_file_ids: [],
  opens_after_days: null,
  opens_on: null,
  ...extra,
});
/** A published course with these lessons, as staff build it. */
async function publishedCourse(title: string, lessonTitles: string[]) {
  const { course } = await authoring().create(editor, { ...COURSE, title });
  for (const each of lessonTitles) await authoring().addLesson(editor, course.id, lesson(each));
  return authoring().setStatus(editor, course.id, 'published');
}
async function libraryFile(filename: string, contentType: string) {
  const [file] = await t.db
    .insert(uploadedFiles)
    .values({ filename, folder: 'videos', storageKey: randomUUID(), contentType, sizeBytes: 10, accessTier: 'bronze' })
    .returning({ id: uploadedFiles.id });
  return file!.id;
}
const catalogueIds = async () => (await t.app.services.courses.list()).map((course) => course.id);

describe("Gold's early access", () => {
  const inDays = (days: number) => localDateOf(new Date(Date.now() + days * 24 * 60 * 60 * 1000), DEFAULT_TIME_ZONE);

  it('opens a course to Gold members first, and to its own tier once the date comes, exactly once with two processes', async () => {
    const { course } = await authoring().create(editor, { ...COURSE, title: 'Gold First', early_access_until: inDays(10) });
    await authoring().addLesson(editor, course.id, lesson('Only'));
    await authoring().setStatus(editor, course.id, 'published');
    const listed = (await t.app.services.courses.list()).find((each) => each.id === course.id)!;
    expect(listed).toMatchObject({ tier: 'gold', early_access: { opens_to: 'bronze' } });
    const bronze = await t.asMember('bronze');
    expect((await refusal(t.app.services.learning.enrol(bronze, course.id))).status).toBe(403);
    await t.app.services.learning.enrol(await t.asMember('gold'), course.id);
    // Staff read back what they chose.
    expect((await authoring().get(editor, course.id)).course.early_access).toMatchObject({ opens_to: 'bronze' });

    const [before, after] = [new Date(Date.now() + 9 * 24 * 3600_000), new Date(Date.now() + 11 * 24 * 3600_000)];
    expect(await endEarlyAccess(createDataAccess(t.db), before)).not.toContain(course.id);
    const runs = await Promise.all([endEarlyAccess(createDataAccess(t.db), after), endEarlyAccess(createDataAccess(t.db), after)]);
    expect(runs.filter((opened) => opened.includes(course.id))).toHaveLength(1);
    expect((await t.app.services.courses.list()).find((each) => each.id === course.id)).toMatchObject({
      tier: 'bronze',
      early_access: null,
    });
    await t.app.services.learning.enrol(bronze, course.id);
    expect(await lastAuditEntry(t, { action: 'course.early-access-ended', target: course.id })).toMatchObject({ newValue: 'bronze' });
  });

  it('refuses an early access that has ended already, and drops it when the course is made Gold or the date is cleared', async () => {
    expect(await refusal(authoring().create(editor, { ...COURSE, title: 'Too Late', early_access_until: inDays(-1) }))).toEqual({
      status: 400,
      message: 'Early access must end on a date still to come.',
    });
    const { course } = await authoring().create(editor, { ...COURSE, title: 'Changing Minds', early_access_until: inDays(5) });
    expect((await authoring().update(editor, course.id, { tier: 'silver' })).course).toMatchObject({
      tier: 'gold',
      early_access: { opens_to: 'silver' },
    });
    expect((await authoring().update(editor, course.id, { early_access_until: null })).course).toMatchObject({
      tier: 'silver',
      early_access: null,
    });
  });
});

describe('who authors', () => {
  it('refuses visitors (401) and members of any tier (403); editors and owners author', async () => {
    const { course, lessons } = await publishedCourse('Gatekept', ['One']);
    const lessonId = lessons[0]!.id;
    for (const viewer of [t.asVisitor(), await t.asMember('gold')]) {
      const status = viewer.member ? 403 : 401;
      for (const call of [
        authoring().list(viewer),
        authoring().get(viewer, course.id),
        authoring().create(viewer, COURSE),
        authoring().update(viewer, course.id, { title: 'Taken over' }),
        authoring().setStatus(viewer, course.id, 'archived'),
        authoring().remove(viewer, course.id),
        authoring().addLesson(viewer, course.id, lesson('Sneaked in')),
        authoring().updateLesson(viewer, lessonId, lesson('Rewritten')),
        authoring().reorderLessons(viewer, course.id, [lessonId]),
        authoring().removeLesson(viewer, lessonId),
      ])
        expect((await refusal(call)).status).toBe(status);
    }
    expect((await authoring().get(await t.asStaff('owner'), course.id)).course).toMatchObject({ title: 'Gatekept', status: 'published' });
  });
});

describe('courses', () => {
  it('creates a draft, out of the catalogue, with a free id from its title and generated artwork, and records it', async () => {
    const first = await authoring().create(editor, COURSE);
    const second = await authoring().create(editor, COURSE);
    expect(first.course).toMatchObject({ id: 'pricing-listings-right', status: 'draft', lesson_count: 0, enrolled_count: 0 });
    expect(second.course.id).toBe('pricing-listings-right-2');
    expect(first.course.thumbnail).toBe('/api/courses/pricing-listings-right/artwork.svg');
    expect(await catalogueIds()).not.toContain(first.course.id);
    expect(await lastAuditEntry(t, { action: 'course.create', target: first.course.id })).toMatchObject({
      actorEmail: editor.staff!.email,
      newValue: COURSE,
    });
  });

  it('changes only the fields given, records before and after, and answers 404 for an unknown course', async () => {
    const { course } = await authoring().create(editor, { ...COURSE, title: 'Open Houses' });
    const { course: updated } = await authoring().update(editor, course.id, { tier: 'gold', duration: '2h' });
    expect(updated).toMatchObject({ title: 'Open Houses', tier: 'gold', duration: '2h', instructor: COURSE.instructor });
    expect(await lastAuditEntry(t, { action: 'course.update', target: course.id })).toMatchObject({
      oldValue: { tier: 'bronze' },
      newValue: { tier: 'gold', duration: '2h' },
    });
    expect(await refusal(authoring().update(editor, 'no-such-course', { title: 'x' }))).toEqual({ status: 404, message: COURSE_NOT_FOUND });
  });

  it('publishes only a course with lessons; archiving takes it out of the catalogue; each change is recorded', async () => {
    const { course } = await authoring().create(editor, { ...COURSE, title: 'Empty Shell' });
    expect(await refusal(authoring().setStatus(editor, course.id, 'published'))).toEqual({
      status: 409,
      message: 'Add at least one lesson before publishing the course.',
    });
    await authoring().addLesson(editor, course.id, lesson('Now it has one'));
    await authoring().setStatus(editor, course.id, 'published');
    expect(await catalogueIds()).toContain(course.id);
    expect(await lastAuditEntry(t, { action: 'course.published', target: course.id })).toMatchObject({
      oldValue: 'draft',
      newValue: 'published',
    });
    await authoring().setStatus(editor, course.id, 'archived');
    expect(await catalogueIds()).not.toContain(course.id);
  });

  it('never takes a started course from its members: no way back to draft, no delete, but it can be archived', async () => {
    const { course } = await publishedCourse('Started By Someone', ['Intro']);
    await t.app.services.learning.enrol(await t.asMember('bronze'), course.id);
    expect(await refusal(authoring().setStatus(editor, course.id, 'draft'))).toEqual({
      status: 409,
      message: 'Members have started this course: archive it instead of making it a draft.',
    });
    expect(await refusal(authoring().remove(editor, course.id))).toEqual({
      status: 409,
      message: 'Members have enrolled in this course, so it cannot be deleted: archive it to take it out of the catalogue.',
    });
    expect((await authoring().setStatus(editor, course.id, 'archived')).course.status).toBe('archived');

    const { course: unstarted } = await publishedCourse('Nobody Came', ['Intro']);
    await authoring().remove(editor, unstarted.id);
    expect(await refusal(authoring().get(editor, unstarted.id))).toEqual({ status: 404, message: COURSE_NOT_FOUND });
    expect(await lastAuditEntry(t, { action: 'course.delete', target: unstarted.id })).toMatchObject({
      oldValue: { title: 'Nobody Came' },
      newValue: null,
    });
  });
});

describe('lessons', () => {
  it('takes videos and attachments from the file library only, the video a video', async () => {
    const { course } = await authoring().create(editor, { ...COURSE, title: 'With Files' });
    const video = await libraryFile('walkthrough.webm', 'video/webm');
    const handout = await libraryFile('handout.pdf', 'application/pdf');
    const added = await authoring().addLesson(
      editor,
      course.id,
      lesson('Method', { video_file_id: video, attachment_file_ids: [handout] }),
    );
    expect(added.lessons[0]).toMatchObject({ video_file_id: video, attachments: [{ id: handout, name: 'handout.pdf' }] });
    const missing = lesson('Ghost', { attachment_file_ids: [randomUUID()] });
    expect(await refusal(authoring().addLesson(editor, course.id, missing))).toEqual({
      status: 400,
      message: 'A chosen file is not in the file library.',
    });
    const notVideo = lesson('Wrong', { video_file_id: handout });
    expect(await refusal(authoring().addLesson(editor, course.id, notVideo))).toEqual({
      status: 400,
      message: 'The lesson video must be a video file.',
    });
    expect((await authoring().get(editor, course.id)).lessons.map((each) => each.title)).toEqual(['Method']);
  });

  it('changes a lesson and reorders them, giving every lesson exactly once; records both', async () => {
    const { course, lessons } = await publishedCourse('Reordered', ['A', 'B', 'C']);
    const [a, b, c] = lessons.map((each) => each.id) as [string, string, string];
    await authoring().updateLesson(editor, b, lesson('B, rewritten', { free_preview: true }));
    expect(await refusal(authoring().updateLesson(editor, 'no-such-lesson', lesson('x')))).toEqual({
      status: 404,
      message: 'Lesson not found',
    });
    for (const wrong of [
      [c, a],
      [c, a, a],
      [c, a, 'stranger'],
    ]) {
      expect(await refusal(authoring().reorderLessons(editor, course.id, wrong))).toEqual({
        status: 400,
        message: 'Give every lesson of the course exactly once, in the new order.',
      });
    }
    const reordered = await authoring().reorderLessons(editor, course.id, [c, a, b]);
    expect(reordered.lessons.map((each) => [each.title, each.free_preview])).toEqual([
      ['C', false],
      ['A', false],
      ['B, rewritten', true],
    ]);
    expect(await lastAuditEntry(t, { action: 'lesson.reorder', target: course.id })).toMatchObject({
      oldValue: [a, b, c],
      newValue: [c, a, b],
    });
    expect(await lastAuditEntry(t, { action: 'lesson.update', target: course.id })).toMatchObject({ oldValue: { id: b, title: 'B' } });
  });

  it('keeps one lesson in a published course, and certifies members whose only missing lesson was removed', async () => {
    const { course, lessons } = await publishedCourse('Shrinking', ['Done', 'Never done']);
    const member = await t.asMember('bronze');
    await t.app.services.learning.enrol(member, course.id);
    await t.app.services.learning.completeLesson(member, lessons[0]!.id);
    await authoring().removeLesson(editor, lessons[1]!.id);

    const [certificate] = await t.db.select().from(certificates).where(eq(certificates.memberId, member.member.id));
    expect(certificate).toMatchObject({ courseId: course.id, courseTitle: 'Shrinking' });
    expect(await refusal(authoring().removeLesson(editor, lessons[0]!.id))).toEqual({
      status: 409,
      message: 'A published course needs at least one lesson: add another first, or unpublish or archive the course.',
    });
    expect(await lastAuditEntry(t, { action: 'lesson.delete', target: course.id })).toMatchObject({
      oldValue: { id: lessons[1]!.id, title: 'Never done' },
    });
  });

  it('shows learners, completions and average progress that move with every enrolment, lesson and departure', async () => {
    const { course, lessons } = await publishedCourse('Counted Learners', ['One', 'Two', 'Three', 'Four']);
    const figures = async () => {
      const listed = (await authoring().list(editor)).items.find((each) => each.id === course.id)!;
      const single = (await authoring().get(editor, course.id)).course;
      expect(single).toMatchObject({ enrolled_count: listed.enrolled_count, completed_count: listed.completed_count });
      return [listed.enrolled_count, listed.completed_count, listed.average_progress];
    };
    expect(await figures()).toEqual([0, 0, 0]);
    const [finisher, starter, leaver] = [await t.asMember('bronze'), await t.asMember('silver'), await t.asMember('gold')];
    for (const member of [finisher, starter, leaver]) await t.app.services.learning.enrol(member, course.id);
    for (const each of lessons) await t.app.services.learning.completeLesson(finisher, each.id);
    await t.app.services.learning.completeLesson(starter, lessons[0]!.id);
    await t.app.services.learning.completeLesson(leaver, lessons[0]!.id);
    // (100 + 25 + 25) / 3
    expect(await figures()).toEqual([3, 1, 50]);

    // A member who leaves takes their enrolment along: (100 + 25) / 2, rounded.
    await t.db.delete(members).where(eq(members.id, leaver.member.id));
    expect(await figures()).toEqual([2, 1, 63]);

    // A new lesson lowers everyone's progress, (80 + 20) / 2; the certificate earned stays.
    await authoring().addLesson(editor, course.id, lesson('Five'));
    expect(await figures()).toEqual([2, 1, 50]);
  });

  // The lesson count is checked under the course's lock, so changes that race cannot leave a published course empty.
  it('keeps one lesson in a published course when two removals race', async () => {
    const { course, lessons } = await publishedCourse('Raced Removals', ['One', 'Two']);
    const results = await Promise.allSettled(lessons.map((each) => authoring().removeLesson(editor, each.id)));
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await authoring().get(editor, course.id)).course.lesson_count).toBe(1);
  });

  it('never publishes a course whose only lesson is removed at the same time', async () => {
    const { course } = await authoring().create(editor, { ...COURSE, title: 'Raced Publishing' });
    const { lessons } = await authoring().addLesson(editor, course.id, lesson('Only'));
    await Promise.allSettled([authoring().setStatus(editor, course.id, 'published'), authoring().removeLesson(editor, lessons[0]!.id)]);
    const { status, lesson_count } = (await authoring().get(editor, course.id)).course;
    expect(status === 'draft' || lesson_count > 0).toBe(true);
  });
});
