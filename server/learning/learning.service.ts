import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { CoursesService } from '../../common/courses.contract.ts';
import { conflict, forbidden, notFound } from '../../common/errors.ts';
import { UPGRADE_NEEDED, type EnrolledCourse, type LearningService, type MemberCertificate } from '../../common/learning.contract.ts';
import { QUIZ_IS_COMPLETED_BY_PASSING } from '../../common/quizzes.contract.ts';
import { PAGE_SIZE, WATCHED_TO_COMPLETE } from '../../common/limits.ts';
import type { BeforeQuery, Paged } from '../../common/paging.ts';
import { progressPercent } from '../../common/progress.ts';
import { type SignedInMember, type Viewer } from '../../common/viewer.ts';
import { mayStudyCourse, requireMember } from '../../common/policies.ts';
import { publicCourse, requireLessonOpen, requirePrerequisiteMet } from '../courses/courses.service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import { creditCourseCompletion } from '../licence/licence.service.ts';
import { BRAND_NAME } from '../../common/brand.ts';
import { DEFAULT_TIME_ZONE, localDateOf } from '../../common/time-zones.ts';

const CERTIFICATE_NOT_FOUND = 'Certificate not found';
const EnrolmentCursor = z.tuple([TimestampKey, z.string().min(1).max(100)]);
const CertificateCursor = z.tuple([TimestampKey, z.uuid()]);

/** A readable, unguessable code such as RP-7K3M-Q9XD-2HPA. */
function newCertificateCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const chars = [...randomBytes(12)].map((byte) => alphabet[byte % alphabet.length]);
  return `RP-${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8, 12).join('')}`;
}

/** Beyond what pages call: certificates owed after the course changed, and a member's learning for their page in the admin area. */
export interface ServerLearningService extends LearningService {
  issueDueCertificates(courseId: string): Promise<number>;
  /**
   * Marks a lesson done in the caller's transaction (a passed quiz, with its score), issuing the
   * course's certificate when it was the last; true when a certificate was issued (mail to send).
   */
  completeInTransaction(tx: Repositories, member: { id: string; name: string }, lesson: OpenLesson): Promise<boolean>;
  /** A member's latest courses with their progress, and certificates (a page of each); the members service checks who asks. */
  recordOf(
    memberId: string,
    pages?: { courses?: string; certificates?: string },
  ): Promise<{ enrolments: Paged<EnrolledCourse>; certificates: Paged<MemberCertificate> }>;
}

/** A lesson as the learning rules read it (its course's tier, title and certificate). */
type OpenLesson = NonNullable<Awaited<ReturnType<Repositories['learning']['findLesson']>>>;

export function createLearningService(deps: {
  data: DataAccess;
  courses: CoursesService;
  /** Absolute links (the verification link printed on certificates) and the certificate email. */
  mailer: Mailer;
}): ServerLearningService {
  const { courses } = deps;
  const learning = deps.data.learning;

  async function entitledCourse(viewer: Viewer, courseId: string) {
    const course = await courses.get(viewer, courseId);
    if (!mayStudyCourse(viewer, course)) throw forbidden(UPGRADE_NEEDED);
    await requirePrerequisiteMet(courses, viewer, course.id);
    return course;
  }

  /** `known`: the enrolment and completed lessons the request already read, and left unchanged (not read again). */
  async function progressOf(memberId: string, courseId: string, known?: { enrolled: boolean; completed: string[] }) {
    const [enrolled, completed, total, certificate, positions] = await Promise.all([
      known?.enrolled ?? learning.isEnrolled(memberId, courseId),
      known?.completed ?? learning.completedLessonIds(memberId, courseId),
      learning.lessonCount(courseId),
      learning.findCertificate(memberId, courseId),
      learning.positions(memberId, courseId),
    ]);
    return {
      course_id: courseId,
      enrolled,
      completed_lesson_ids: completed,
      lesson_count: total,
      progress_percent: progressPercent(completed.length, total),
      certificate_code: certificate?.code ?? null,
      positions,
    };
  }

  /** The lesson, if this member may take it: a lesson of a course they may not see (a draft, an archived course they never took) is not there. */
  async function openLesson(viewer: Viewer, lessonId: string) {
    const lesson = await learning.findLesson(lessonId);
    if (!lesson || !(await courses.find(viewer, lesson.courseId))) throw notFound('Lesson not found');
    if (!mayStudyCourse(viewer, { tier: lesson.courseTier })) throw forbidden(UPGRADE_NEEDED);
    // Studying a lesson (completing it, its place in the video) waits for its drip and the course it
    // builds on, a free preview too: it would start the course.
    await requireLessonOpen(courses, viewer, { ...lesson, freePreview: false });
    return lesson;
  }

  /** Marks the lesson complete in this transaction; the last one issues the course's certificate. */
  async function completeInTransaction(repositories: Repositories, member: { id: string; name: string }, lesson: OpenLesson) {
    const tx = repositories.learning;
    if (!(await tx.isEnrolled(member.id, lesson.courseId))) throw conflict('Start the course before completing its lessons.');
    await tx.markComplete(member.id, lesson.id);
    const [completed, total] = await Promise.all([tx.completedLessonIds(member.id, lesson.courseId), tx.lessonCount(lesson.courseId)]);
    // A course without a certificate issues none; one earned stays when lessons are added later.
    if (!lesson.courseCertificate || completed.length < total) return false;
    return issueCertificate(repositories, member, {
      id: lesson.courseId,
      title: lesson.courseTitle,
      showsScore: lesson.courseCertificateShowsScore,
    });
  }

  /** Marks the lesson complete for an enrolled member; the last one issues the course's certificate. */
  async function complete(member: SignedInMember, lesson: OpenLesson) {
    // A certificate earned here is congratulated by lifecycle mail's 'course finished' (server/lifecycle).
    await deps.data.transaction((repositories) => completeInTransaction(repositories, member, lesson));
  }

  async function enrolmentsOf(memberId: string, query: BeforeQuery = {}): Promise<Paged<EnrolledCourse>> {
    const before = query.before ? decodeCursor(query.before, EnrolmentCursor) : undefined;
    const rows = await learning.listEnrolments(
      memberId,
      PAGE_SIZE.memberList + 1,
      before && { enrolledAt: before[0], courseId: before[1] },
    );
    return pageOf(
      rows,
      PAGE_SIZE.memberList,
      (row) => [row.enrolledKey, row.course.id],
      (row) => ({
        ...publicCourse({ ...row.course, prerequisiteTitle: row.prerequisiteTitle, lesson_count: row.lessonCount }),
        completed_lessons: row.completedCount,
        progress_percent: progressPercent(row.completedCount, row.lessonCount),
        enrolled_at: row.enrolledAt.toISOString(),
      }),
    );
  }

  async function certificatesOf(memberId: string, query: BeforeQuery = {}): Promise<Paged<MemberCertificate>> {
    const before = query.before ? decodeCursor(query.before, CertificateCursor) : undefined;
    const rows = await learning.listCertificates(memberId, PAGE_SIZE.memberList + 1, before && { issuedAt: before[0], id: before[1] });
    return pageOf(
      rows,
      PAGE_SIZE.memberList,
      (row) => [row.issuedKey, row.id],
      (row) => ({
        code: row.code,
        course_id: row.courseId,
        course_title: row.courseTitle,
        issued_at: row.issuedAt.toISOString(),
      }),
    );
  }

  /** Issues the member's certificate for the course unless they have it; mails it (unless they unsubscribed). */
  async function issueCertificate(
    repositories: Repositories,
    member: { id: string; name: string },
    course: { id: string; title: string; showsScore: boolean },
  ) {
    if (await repositories.learning.findCertificate(member.id, course.id)) return false;
    const code = newCertificateCode();
    const certificateId = await repositories.learning.createCertificate({
      memberId: member.id,
      courseId: course.id,
      code,
      memberName: member.name,
      courseTitle: course.title,
      scorePercent: course.showsScore ? await quizScore(repositories, member.id, course.id) : null,
    });
    // A course approved for CE counts in the ledger of each state that approves it, dated in the member's zone.
    // (The congratulation, with what to take next, is lifecycle mail's 'course finished': server/lifecycle.)
    if (certificateId) {
      const account = await repositories.members.findAccount({ id: member.id });
      const issuedOn = localDateOf(new Date(), account?.timeZone ?? DEFAULT_TIME_ZONE);
      await creditCourseCompletion(
        repositories,
        member,
        { id: certificateId, courseId: course.id, courseTitle: course.title, issuedOn },
        BRAND_NAME,
      );
    }
    return true;
  }

  /** The score a certificate states: the member's best passing try of each quiz, averaged; null without quizzes. */
  async function quizScore(repositories: Repositories, memberId: string, courseId: string): Promise<number | null> {
    const scores = await repositories.quizzes.bestPassingScores(memberId, await repositories.learning.quizLessonIds(courseId));
    return scores.length === 0 ? null : Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length);
  }

  async function ownCertificate(code: string) {
    const certificate = await learning.certificateByCode(code.toUpperCase());
    if (!certificate) throw notFound(CERTIFICATE_NOT_FOUND);
    return certificate;
  }

  return {
    async enrol(viewer, courseId) {
      const member = requireMember(viewer);
      await entitledCourse(viewer, courseId);
      await learning.enrol(member.id, courseId);
      return progressOf(member.id, courseId);
    },

    async courseProgress(viewer, courseId) {
      const member = requireMember(viewer);
      await courses.get(viewer, courseId);
      return progressOf(member.id, courseId);
    },

    async completeLesson(viewer, lessonId) {
      const member = requireMember(viewer);
      const lesson = await openLesson(viewer, lessonId);
      if (lesson.kind === 'quiz') throw conflict(QUIZ_IS_COMPLETED_BY_PASSING);
      await complete(member, lesson);
      return progressOf(member.id, lesson.courseId);
    },

    async saveLessonPosition(viewer, lessonId, input) {
      const member = requireMember(viewer);
      const lesson = await openLesson(viewer, lessonId);
      if (!lesson.hasVideo) throw conflict('This lesson has no video to resume.');
      // Watching a lesson starts its course. Writes that change nothing are skipped: each one would
      // still tell every process that members' data changed.
      const [enrolled, completed] = await Promise.all([
        learning.isEnrolled(member.id, lesson.courseId),
        learning.completedLessonIds(member.id, lesson.courseId),
      ]);
      if (!enrolled) await learning.enrol(member.id, lesson.courseId);
      await learning.savePosition(member.id, lesson.id, {
        positionSeconds: input.position_seconds,
        durationSeconds: input.duration_seconds,
      });
      const watched = input.duration_seconds > 0 && input.position_seconds >= input.duration_seconds * WATCHED_TO_COMPLETE;
      if (watched && !completed.includes(lesson.id)) {
        await complete(member, lesson);
        return progressOf(member.id, lesson.courseId);
      }
      // Most saves are a place in the video, nothing more: the member is enrolled (now) and has
      // completed what they had, so those two are not read again.
      return progressOf(member.id, lesson.courseId, { enrolled: true, completed });
    },

    completeInTransaction,

    // After staff remove a lesson, members who have now done every remaining one get their certificate.
    async issueDueCertificates(courseId) {
      const due = await learning.membersDueCertificate(courseId);
      let issued = 0;
      for (const member of due) {
        const earned = await deps.data.transaction((repositories) =>
          issueCertificate(
            repositories,
            { id: member.memberId, name: member.name },
            { id: courseId, title: member.courseTitle, showsScore: member.showsScore },
          ),
        );
        if (earned) issued++;
      }
      return issued;
    },

    enrolments: async (viewer, query) => enrolmentsOf(requireMember(viewer).id, query),
    certificates: async (viewer, query) => certificatesOf(requireMember(viewer).id, query),
    counts: async (viewer) => learning.countsOf(requireMember(viewer).id),

    async recordOf(memberId, pages = {}) {
      const [enrolments, certificates] = await Promise.all([
        enrolmentsOf(memberId, { before: pages.courses }),
        certificatesOf(memberId, { before: pages.certificates }),
      ]);
      return { enrolments, certificates };
    },

    async verifyCertificate(code) {
      const certificate = await ownCertificate(code);
      return {
        code: certificate.code,
        member_name: certificate.memberName,
        course_id: certificate.courseId,
        course_title: certificate.courseTitle,
        issued_at: certificate.issuedAt.toISOString(),
        score_percent: certificate.scorePercent,
      };
    },

    // The PDF is for its owner only.
    async certificatePdf(viewer, code) {
      const member = requireMember(viewer);
      const certificate = await ownCertificate(code);
      if (certificate.memberId !== member.id) throw forbidden('This certificate belongs to another member.');
      const verifyUrl = deps.mailer.link(`/certificates/${certificate.code}`);
      // pdf-lib (150 modules) is loaded with the first certificate asked for, not at every start.
      const { renderCertificatePdf } = await import('./certificate-pdf.ts');
      return { code: certificate.code, pdf: await renderCertificatePdf({ ...certificate, verifyUrl }) };
    },
  };
}
