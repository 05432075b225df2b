import { z } from 'zod';
import type { BeforeQuery, Paged } from './paging.ts';
import { Course, LessonParams } from './courses.contract.ts';
import { CERTIFICATE_CODE_MAX_LENGTH, VIDEO_MAX_SECONDS } from './limits.ts';
import type { Viewer } from './viewer.ts';

// Enrolment, lesson progress and certificates (DESIGN: what the original only faked is stored).

export const UPGRADE_NEEDED = 'Your membership does not include this course. Upgrade your plan to access it.';

export const CourseProgress = z.object({
  course_id: z.string(),
  enrolled: z.boolean(),
  completed_lesson_ids: z.array(z.string()),
  lesson_count: z.number().int(),
  progress_percent: z.number().int(),
  certificate_code: z.string().nullable(),
  /** Where the member stopped in each lesson's video, in seconds, by lesson id: any device resumes there. */
  positions: z.record(z.string(), z.number()),
});
export type CourseProgress = z.infer<typeof CourseProgress>;

export const EnrolledCourse = Course.extend({
  completed_lessons: z.number().int(),
  progress_percent: z.number().int(),
  enrolled_at: z.string(),
});
export type EnrolledCourse = z.infer<typeof EnrolledCourse>;
export const EnrolledCourseList = z.array(EnrolledCourse);

export const MemberCertificate = z.object({
  code: z.string(),
  course_id: z.string(),
  course_title: z.string(),
  issued_at: z.string(),
});
export type MemberCertificate = z.infer<typeof MemberCertificate>;
export const MemberCertificateList = z.array(MemberCertificate);

/** The public verification of a certificate: who, which course, when. */
export const CertificateVerification = z.object({
  code: z.string(),
  member_name: z.string(),
  course_id: z.string(),
  course_title: z.string(),
  issued_at: z.string(),
  /** The score in the course's quizzes, where the course's certificate states one (percent). */
  score_percent: z.number().int().nullable(),
});
export type CertificateVerification = z.infer<typeof CertificateVerification>;

export const CertificateParams = z.object({
  code: z
    .string()
    .regex(
      new RegExp(`^[A-Za-z0-9-]{1,${CERTIFICATE_CODE_MAX_LENGTH}}$`),
      'A certificate code is letters, digits and dashes, such as RP-7K3M-Q9XD-2HPA',
    ),
});

const seconds = (what: string) =>
  z
    .number({ error: `The ${what} is a number of seconds.` })
    .min(0, `The ${what} cannot be negative.`)
    .max(VIDEO_MAX_SECONDS, `The ${what} cannot be longer than a day.`);

/** The player's report of where the member is in a lesson's video. */
export const LessonPositionInput = z
  .object({ position_seconds: seconds('position'), duration_seconds: seconds('video length') })
  .refine((input) => input.position_seconds <= input.duration_seconds + 1, {
    error: 'The position cannot be past the end of the video.',
    path: ['position_seconds'],
  });
export type LessonPositionInput = z.infer<typeof LessonPositionInput>;

/** The course page's forms: 'Start Learning' enrols, 'Mark as complete' completes one lesson. */
export const CourseFormInput = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('enrol') }),
  z.object({ intent: z.literal('complete'), lessonId: LessonParams.shape.id }),
]);

export interface LearningService {
  /** Enrols an entitled member; enrolling twice changes nothing. */
  enrol(viewer: Viewer, courseId: string): Promise<CourseProgress>;
  courseProgress(viewer: Viewer, courseId: string): Promise<CourseProgress>;
  /** Marks a lesson complete; completing the last lesson of a course issues its certificate. */
  completeLesson(viewer: Viewer, lessonId: string): Promise<CourseProgress>;
  /**
   * Stores where the member is in a lesson's video (enrolling them: watching starts the course);
   * past WATCHED_TO_COMPLETE of the video the lesson is complete.
   */
  saveLessonPosition(viewer: Viewer, lessonId: string, input: LessonPositionInput): Promise<CourseProgress>;
  /** The member's courses with their progress, latest first, a page at a time. */
  enrolments(viewer: Viewer, query?: BeforeQuery): Promise<Paged<EnrolledCourse>>;
  /** The member's certificates, latest first, a page at a time. */
  certificates(viewer: Viewer, query?: BeforeQuery): Promise<Paged<MemberCertificate>>;
  /** How many courses the member is enrolled in and certificates they earned (the dashboard's tiles). */
  counts(viewer: Viewer): Promise<{ enrolments: number; certificates: number }>;
  /** Public: the certificate with this code, or a 404. */
  verifyCertificate(code: string): Promise<CertificateVerification>;
  /** The certificate as a PDF, for its owner only. */
  certificatePdf(viewer: Viewer, code: string): Promise<{ code: string; pdf: Uint8Array }>;
}
