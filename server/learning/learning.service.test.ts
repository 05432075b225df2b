import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { COURSE_NOT_FOUND } from '../../common/courses.contract.ts';
import { UPGRADE_NEEDED } from '../../common/learning.contract.ts';
import { outboxMessages } from '../../db/schema.ts';
import { authoredCourse, libraryFile, refusal, serviceTestApp, SIGN_IN_FIRST } from '../../tests/helpers/service-tests.ts';
import { sendLifecycleMail } from '../lifecycle/lifecycle-mail.ts';
import { createMailer } from '../mail/mailer.ts';
import { createDataAccess } from '../repositories.ts';

// A member's learning: enrolling where their tier reaches, completing lessons of a course they
// started, resuming videos, and the certificate the last lesson earns (mailed, and theirs alone).

const t = serviceTestApp();
const learning = () => t.app.services.learning;
let lessons: string[];

beforeAll(async () => {
  const video = await libraryFile(t, { filename: 'tour.mp4', folder: 'videos', contentType: 'video/mp4' });
  const made = await authoredCourse(t, { title: 'Farming A Neighbourhood', tier: 'silver' }, [
    { title: 'Pick the patch', video_file_id: video },
    { title: 'Knock on doors' },
  ]);
  lessons = made.lessons.map((lesson) => lesson.id);
});

describe('enrolling', () => {
  it('refuses visitors and staff, members below the course’s tier, and unknown or draft courses', async () => {
    expect(await refusal(learning().enrol(t.asVisitor(), 'farming-a-neighbourhood'))).toEqual(SIGN_IN_FIRST);
    expect(await refusal(learning().enrol(await t.asStaff('owner'), 'farming-a-neighbourhood'))).toEqual(SIGN_IN_FIRST);
    expect(await refusal(learning().enrol(await t.asMember('bronze'), 'farming-a-neighbourhood'))).toEqual({
      status: 403,
      message: UPGRADE_NEEDED,
    });
    const draft = await authoredCourse(t, { title: 'Not Yet' }, [{ title: 'Soon' }], 'draft');
    for (const courseId of ['no-such-course', draft.course.id])
      expect(await refusal(learning().enrol(await t.asMember('gold'), courseId))).toEqual({ status: 404, message: COURSE_NOT_FOUND });
  });

  it('enrols a member whose tier reaches, once, and counts it on their dashboard', async () => {
    const member = await t.asMember('silver');
    expect(await learning().courseProgress(member, 'farming-a-neighbourhood')).toMatchObject({ enrolled: false, lesson_count: 2 });
    await learning().enrol(member, 'farming-a-neighbourhood');
    expect(await learning().enrol(member, 'farming-a-neighbourhood')).toEqual({
      course_id: 'farming-a-neighbourhood',
      enrolled: true,
      completed_lesson_ids: [],
      lesson_count: 2,
      progress_percent: 0,
      certificate_code: null,
      positions: {},
    });
    expect(await learning().counts(member)).toEqual({ enrolments: 1, certificates: 0 });
    expect((await learning().enrolments(member)).items.map((course) => [course.id, course.progress_percent])).toEqual([
      ['farming-a-neighbourhood', 0],
    ]);
  });
});

describe('lessons and certificates', () => {
  it('completes lessons only of a course the member started, and issues and mails the certificate with the last one', async () => {
    const member = await t.asMember('gold');
    expect(await refusal(learning().completeLesson(member, lessons[0]!))).toEqual({
      status: 409,
      message: 'Start the course before completing its lessons.',
    });
    expect(await refusal(learning().completeLesson(member, 'no-such-lesson'))).toEqual({ status: 404, message: 'Lesson not found' });
    expect(await refusal(learning().completeLesson(await t.asMember('bronze'), lessons[0]!))).toEqual({
      status: 403,
      message: UPGRADE_NEEDED,
    });

    await learning().enrol(member, 'farming-a-neighbourhood');
    expect(await learning().completeLesson(member, lessons[0]!)).toMatchObject({ progress_percent: 50, certificate_code: null });
    const done = await learning().completeLesson(member, lessons[1]!);
    expect(done).toMatchObject({
      progress_percent: 100,
      certificate_code: expect.stringMatching(/^RP-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/),
    });
    const code = done.certificate_code!;
    // The congratulation is lifecycle mail's 'course finished', sent by the minute's step: once.
    const congratulations = async () => {
      await sendLifecycleMail(createDataAccess(t.db), createMailer({ publicUrl: 'http://localhost', nudge: () => {} }));
      return t.db
        .select()
        .from(outboxMessages)
        .where(and(eq(outboxMessages.toAddress, member.member.email), eq(outboxMessages.kind, 'lifecycle-course-finished')));
    };
    expect((await congratulations()).map((mail) => mail.text)).toEqual([
      expect.stringContaining(encodeURIComponent(`/certificates/${code}`)),
    ]);

    // Completing again changes nothing: the same certificate, no second mail.
    expect((await learning().completeLesson(member, lessons[1]!)).certificate_code).toBe(code);
    expect(await congratulations()).toHaveLength(1);
    expect(await learning().counts(member)).toEqual({ enrolments: 1, certificates: 1 });
    expect(await learning().verifyCertificate(code.toLowerCase())).toMatchObject({
      code,
      member_name: member.member.name,
      course_id: 'farming-a-neighbourhood',
      course_title: 'Farming A Neighbourhood',
    });
    expect(
      Buffer.from((await learning().certificatePdf(member, code)).pdf)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(await refusal(learning().certificatePdf(await t.asMember('gold'), code))).toEqual({
      status: 403,
      message: 'This certificate belongs to another member.',
    });
    expect(await refusal(learning().verifyCertificate('RP-0000-0000-0000'))).toEqual({ status: 404, message: 'Certificate not found' });
  });

  it('issues no certificate for a course without one', async () => {
    const made = await authoredCourse(t, { title: 'Quick Tips', certificate: false }, [{ title: 'One tip' }]);
    const member = await t.asMember('free');
    await learning().enrol(member, made.course.id);
    expect(await learning().completeLesson(member, made.lessons[0]!.id)).toMatchObject({
      progress_percent: 100,
      certificate_code: null,
    });
  });

  it('keeps where the member stopped in a video (starting the course), and completes the lesson once 90% is watched', async () => {
    const member = await t.asMember('silver');
    expect(await refusal(learning().saveLessonPosition(member, lessons[1]!, { position_seconds: 5, duration_seconds: 60 }))).toEqual({
      status: 409,
      message: 'This lesson has no video to resume.',
    });
    const stopped = await learning().saveLessonPosition(member, lessons[0]!, { position_seconds: 30, duration_seconds: 100 });
    expect(stopped).toMatchObject({ enrolled: true, completed_lesson_ids: [], positions: { [lessons[0]!]: 30 } });
    const watched = await learning().saveLessonPosition(member, lessons[0]!, { position_seconds: 90, duration_seconds: 100 });
    expect(watched).toMatchObject({ completed_lesson_ids: [lessons[0]], progress_percent: 50, positions: { [lessons[0]!]: 90 } });
  });
});
