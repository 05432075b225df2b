import { prerequisiteTitle } from '../courses/courses.repository.ts';
import { and, asc, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { certificates, courses, enrolments, lessonPositions, lessonProgress, lessons, members } from '../../db/schema.ts';
import { weeklyCountsSince } from '../stats/weekly-counts.repository.ts';

export function createLearningRepository(db: DatabaseOrTransaction) {
  return {
    async enrol(memberId: string, courseId: string): Promise<void> {
      await db.insert(enrolments).values({ memberId, courseId }).onConflictDoNothing();
    },

    async isEnrolled(memberId: string, courseId: string): Promise<boolean> {
      const [row] = await db
        .select({ courseId: enrolments.courseId })
        .from(enrolments)
        .where(and(eq(enrolments.memberId, memberId), eq(enrolments.courseId, courseId)));
      return Boolean(row);
    },

    async findLesson(lessonId: string) {
      const [row] = await db
        .select({
          id: lessons.id,
          courseId: lessons.courseId,
          courseTier: courses.tier,
          courseTitle: courses.title,
          courseCertificate: courses.certificate,
          courseCertificateShowsScore: courses.certificateShowsScore,
          kind: lessons.kind,
          freePreview: lessons.freePreview,
          opensAfterDays: lessons.opensAfterDays,
          opensOn: lessons.opensOn,
          hasVideo: sql<boolean>`${lessons.videoFileId} is not null or coalesce(${lessons.videoUrl}, '') <> ''`,
        })
        .from(lessons)
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .where(eq(lessons.id, lessonId));
      return row ?? null;
    },

    /** Lesson ids of the course this member completed, in course order. */
    async completedLessonIds(memberId: string, courseId: string): Promise<string[]> {
      const rows = await db
        .select({ id: lessons.id })
        .from(lessonProgress)
        .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
        .where(and(eq(lessonProgress.memberId, memberId), eq(lessons.courseId, courseId)))
        .orderBy(asc(lessons.position));
      return rows.map((row) => row.id);
    },

    /** The course's quiz lessons, in order (a certificate that states a score averages the member's best of each). */
    async quizLessonIds(courseId: string): Promise<string[]> {
      const rows = await db
        .select({ id: lessons.id })
        .from(lessons)
        .where(and(eq(lessons.courseId, courseId), eq(lessons.kind, 'quiz')))
        .orderBy(asc(lessons.position));
      return rows.map((row) => row.id);
    },

    async lessonCount(courseId: string): Promise<number> {
      const [row] = await db.select({ value: count() }).from(lessons).where(eq(lessons.courseId, courseId));
      return row?.value ?? 0;
    },

    async markComplete(memberId: string, lessonId: string): Promise<void> {
      await db.insert(lessonProgress).values({ memberId, lessonId }).onConflictDoNothing();
    },

    async savePosition(memberId: string, lessonId: string, position: { positionSeconds: number; durationSeconds: number }) {
      await db
        .insert(lessonPositions)
        .values({ memberId, lessonId, ...position })
        .onConflictDoUpdate({
          target: [lessonPositions.memberId, lessonPositions.lessonId],
          set: { ...position, updatedAt: sql`now()` },
        });
    },

    /** Where the member stopped in each lesson of the course, in seconds, by lesson id. */
    async positions(memberId: string, courseId: string): Promise<Record<string, number>> {
      const rows = await db
        .select({ lessonId: lessonPositions.lessonId, seconds: lessonPositions.positionSeconds })
        .from(lessonPositions)
        .innerJoin(lessons, eq(lessons.id, lessonPositions.lessonId))
        .where(and(eq(lessonPositions.memberId, memberId), eq(lessons.courseId, courseId)));
      return Object.fromEntries(rows.map((row) => [row.lessonId, row.seconds]));
    },

    async findCertificate(memberId: string, courseId: string) {
      const [row] = await db
        .select()
        .from(certificates)
        .where(and(eq(certificates.memberId, memberId), eq(certificates.courseId, courseId)));
      return row ?? null;
    },

    async createCertificate(values: {
      memberId: string;
      courseId: string;
      code: string;
      memberName: string;
      courseTitle: string;
      scorePercent: number | null;
    }) {
      const [created] = await db.insert(certificates).values(values).onConflictDoNothing().returning({ id: certificates.id });
      return created?.id ?? null;
    },

    async certificateByCode(code: string) {
      const [row] = await db.select().from(certificates).where(eq(certificates.code, code));
      return row ?? null;
    },

    /** Enrolments since this date, per week (weeks start on Monday), as YYYY-MM-DD. */
    async enrolmentsByWeek(since: Date) {
      return weeklyCountsSince(db, 'enrolments', since);
    },

    /** Members enrolled in a course with a certificate who have done all its lessons but have no certificate. */
    async membersDueCertificate(courseId: string) {
      const total = sql`(select count(*) from lessons l where l.course_id = ${courseId})`;
      const done = sql`(select count(*) from lesson_progress p join lessons l on l.id = p.lesson_id where p.member_id = ${enrolments.memberId} and l.course_id = ${courseId})`;
      return db
        .select({ memberId: members.id, name: members.name, courseTitle: courses.title, showsScore: courses.certificateShowsScore })
        .from(enrolments)
        .innerJoin(members, eq(members.id, enrolments.memberId))
        .innerJoin(courses, eq(courses.id, enrolments.courseId))
        .where(
          and(
            eq(enrolments.courseId, courseId),
            eq(courses.certificate, true),
            sql`${total} > 0 and ${done} >= ${total}`,
            sql`not exists (select 1 from certificates c where c.member_id = ${enrolments.memberId} and c.course_id = ${courseId})`,
          ),
        );
    },

    /** The member's certificates, newest first, after `before` (a page). */
    async listCertificates(memberId: string, limit: number, before?: { issuedAt: string; id: string }) {
      return db
        .select({ ...getTableColumns(certificates), issuedKey: sql<string>`${certificates.issuedAt}::text` })
        .from(certificates)
        .where(
          and(
            eq(certificates.memberId, memberId),
            before
              ? sql`(${certificates.issuedAt}, ${certificates.id}) < (${before.issuedAt}::timestamptz, ${before.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(certificates.issuedAt), desc(certificates.id))
        .limit(limit);
    },

    /** Every lesson the member completed, with its course (a member's own export; as many as the catalogue's lessons). */
    async progressOf(memberId: string) {
      return db
        .select({ lessonId: lessonProgress.lessonId, courseId: lessons.courseId, completedAt: lessonProgress.completedAt })
        .from(lessonProgress)
        .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
        .where(eq(lessonProgress.memberId, memberId))
        .orderBy(asc(lessonProgress.completedAt));
    },

    /** How many courses the member is enrolled in and certificates they earned (counted on their indexes). */
    async countsOf(memberId: string): Promise<{ enrolments: number; certificates: number }> {
      const [row] = await db
        .select({
          enrolments: sql<number>`(select count(*)::int from ${enrolments} where ${enrolments.memberId} = ${memberId})`,
          certificates: sql<number>`(select count(*)::int from ${certificates} where ${certificates.memberId} = ${memberId})`,
        })
        .from(sql`(select 1) as one`);
      return { enrolments: row?.enrolments ?? 0, certificates: row?.certificates ?? 0 };
    },

    /** Enrolled courses, most recent first, after `before` (a page), with how many of their lessons the member completed. */
    async listEnrolments(memberId: string, limit: number, before?: { enrolledAt: string; courseId: string }) {
      const rows = await db
        .select({
          course: courses,
          prerequisiteTitle,
          enrolledAt: enrolments.enrolledAt,
          enrolledKey: sql<string>`${enrolments.enrolledAt}::text`,
        })
        .from(enrolments)
        .innerJoin(courses, eq(courses.id, enrolments.courseId))
        .where(
          and(
            eq(enrolments.memberId, memberId),
            before
              ? sql`(${enrolments.enrolledAt}, ${enrolments.courseId}) < (${before.enrolledAt}::timestamptz, ${before.courseId})`
              : undefined,
          ),
        )
        .orderBy(desc(enrolments.enrolledAt), desc(enrolments.courseId))
        .limit(limit);
      if (rows.length === 0) return [];
      const courseIds = rows.map((row) => row.course.id);
      const [totals, done] = await Promise.all([
        db
          .select({ courseId: lessons.courseId, value: count() })
          .from(lessons)
          .where(inArray(lessons.courseId, courseIds))
          .groupBy(lessons.courseId),
        db
          .select({ courseId: lessons.courseId, value: count() })
          .from(lessonProgress)
          .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
          .where(and(eq(lessonProgress.memberId, memberId), inArray(lessons.courseId, courseIds)))
          .groupBy(lessons.courseId),
      ]);
      const totalOf = new Map(totals.map((row) => [row.courseId, row.value]));
      const doneOf = new Map(done.map((row) => [row.courseId, row.value]));
      return rows.map((row) => ({
        ...row,
        lessonCount: totalOf.get(row.course.id) ?? 0,
        completedCount: doneOf.get(row.course.id) ?? 0,
      }));
    },
  };
}
