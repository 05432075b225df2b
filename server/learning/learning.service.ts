import { randomBytes } from 'node:crypto';
import { progressPercent } from '../../common/progress.ts';
import { isEntitled, type Tier } from '../../common/tiers.ts';
import type { Database } from '../../db/client.ts';
import { createCoursesRepository } from '../courses/courses.repository.ts';
import { forbidden, HttpError, notFound } from '../http/errors.ts';
import type { MemberIdentity } from '../sessions/session.service.ts';
import { createLearningRepository } from './learning.repository.ts';

const UPGRADE_NEEDED = 'Your membership does not include this course. Upgrade your plan to access it.';

/** A readable, unguessable code such as RP-7K3M-Q9XD-2HPA. */
function newCertificateCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(12);
  const chars = [...bytes].map((byte) => alphabet[byte % alphabet.length]);
  return `RP-${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8, 12).join('')}`;
}

export function createLearningService(db: Database) {
  const learning = createLearningRepository(db);
  const courses = createCoursesRepository(db);

  async function entitledCourse(member: MemberIdentity, courseId: string) {
    const course = await courses.findById(courseId);
    if (!course) throw notFound('Course not found');
    if (!isEntitled(member.membershipTier, course.tier)) throw forbidden(UPGRADE_NEEDED);
    return course;
  }

  async function progressOf(memberId: string, courseId: string) {
    const [enrolled, completed, total, certificate] = await Promise.all([
      learning.isEnrolled(memberId, courseId),
      learning.completedLessonIds(memberId, courseId),
      learning.lessonCount(courseId),
      learning.findCertificate(memberId, courseId),
    ]);
    return {
      course_id: courseId,
      enrolled,
      completed_lesson_ids: completed,
      lesson_count: total,
      progress_percent: progressPercent(completed.length, total),
      certificate_code: certificate?.code ?? null,
    };
  }

  return {
    progressOf,

    /** Enrols an entitled member; enrolling twice changes nothing. */
    async enrol(member: MemberIdentity, courseId: string) {
      await entitledCourse(member, courseId);
      await learning.enrol(member.id, courseId);
      return progressOf(member.id, courseId);
    },

    async courseProgress(member: MemberIdentity, courseId: string) {
      const course = await courses.findById(courseId);
      if (!course) throw notFound('Course not found');
      return progressOf(member.id, courseId);
    },

    /** Marks a lesson complete; completing the last lesson of a course issues its certificate. */
    async completeLesson(member: MemberIdentity, lessonId: string) {
      const lesson = await learning.findLesson(lessonId);
      if (!lesson) throw notFound('Lesson not found');
      if (!isEntitled(member.membershipTier, lesson.courseTier as Tier)) throw forbidden(UPGRADE_NEEDED);
      await db.transaction(async (tx) => {
        if (!(await learning.isEnrolled(member.id, lesson.courseId, tx))) {
          throw new HttpError(409, 'Start the course before completing its lessons.');
        }
        await learning.markComplete(member.id, lesson.id, tx);
        const [completed, total] = await Promise.all([
          learning.completedLessonIds(member.id, lesson.courseId, tx),
          learning.lessonCount(lesson.courseId, tx),
        ]);
        if (completed.length >= total && !(await learning.findCertificate(member.id, lesson.courseId, tx))) {
          await learning.createCertificate(
            {
              memberId: member.id,
              courseId: lesson.courseId,
              code: newCertificateCode(),
              memberName: member.name,
              courseTitle: lesson.courseTitle,
            },
            tx,
          );
        }
      });
      return progressOf(member.id, lesson.courseId);
    },

    async enrolments(memberId: string) {
      const rows = await learning.listEnrolments(memberId);
      return rows.map((row) => ({
        id: row.course.id,
        title: row.course.title,
        description: row.course.description,
        category: row.course.category,
        tier: row.course.tier as Tier,
        thumbnail: row.course.thumbnail,
        duration: row.course.duration,
        instructor: row.course.instructor,
        lesson_count: row.lessonCount,
        completed_lessons: row.completedCount,
        progress_percent: progressPercent(row.completedCount, row.lessonCount),
        enrolled_at: row.enrolledAt.toISOString(),
      }));
    },

    async certificates(memberId: string) {
      const rows = await learning.listCertificates(memberId);
      return rows.map((row) => ({
        code: row.code,
        course_id: row.courseId,
        course_title: row.courseTitle,
        issued_at: row.issuedAt.toISOString(),
      }));
    },

    certificateByCode: learning.certificateByCode,
  };
}
