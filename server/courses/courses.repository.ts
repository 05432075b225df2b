import { and, asc, count, eq, inArray, lte, max, sql, type SQL, getTableColumns } from 'drizzle-orm';
import type { Tier } from '../../common/tiers.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import {
  courseLearnerCounts,
  courses,
  earlyOpenings,
  lessonEarlyOpenings,
  enrolments,
  lessonOpeningsTold,
  members,
  lessonAttachments,
  lessonCaptions,
  lessons,
  quizQuestions,
  uploadedFiles,
} from '../../db/schema.ts';
import type { CaptionLanguage } from '../../common/course-kinds.ts';
import type { PrerequisiteStanding } from '../../common/policies.ts';
import { DEFAULT_TIME_ZONE } from '../../common/time-zones.ts';

/** How long after a dripped lesson opened its member is still told (a minute job that was down catches up; older openings are not news). */
const DRIP_TELLS_FOR_MS = 24 * 60 * 60 * 1000;

/** Where a member stands with a course (`learnerStanding`). */
export interface LearnerStanding {
  startedAt: Date | null;
  openedEarly: boolean;
  /** The course's dripped lessons staff opened to the member before their day. */
  lessonsOpenedEarly: string[];
  prerequisite: PrerequisiteStanding | null;
}
import type { Cue } from '../../common/webvtt.ts';

/** The title of the course a course builds on, while that one is published (else it asks nothing). */
export const prerequisiteTitle = sql<
  string | null
>`(select required.title from ${courses} as required where required.id = ${courses.prerequisiteCourseId} and required.status = 'published')`;

const courseColumns = {
  id: courses.id,
  title: courses.title,
  description: courses.description,
  category: courses.category,
  tier: courses.tier,
  thumbnail: courses.thumbnail,
  duration: courses.duration,
  instructor: courses.instructor,
  level: courses.level,
  certificate: courses.certificate,
  certificateShowsScore: courses.certificateShowsScore,
  status: courses.status,
  thumbnailFileId: courses.thumbnailFileId,
  earlyAccessTier: courses.earlyAccessTier,
  earlyAccessUntil: courses.earlyAccessUntil,
  prerequisiteCourseId: courses.prerequisiteCourseId,
  prerequisiteTitle,
  createdAt: courses.createdAt,
  lesson_count: count(lessons.id),
};

/** Where the staff's next page of courses starts: the last row's place in catalogue order. */
export interface CourseListKey {
  position: number;
  title: string;
  id: string;
}

type NewCourse = typeof courses.$inferInsert;
type NewLesson = typeof lessons.$inferInsert;

export function createCoursesRepository(db: DatabaseOrTransaction) {
  return {
    /** Every course, whatever its status, in catalogue order (the service decides who sees which). */
    async list() {
      return db
        .select(courseColumns)
        .from(courses)
        .leftJoin(lessons, eq(lessons.courseId, courses.id))
        .groupBy(courses.id)
        .orderBy(asc(courses.position), asc(courses.title));
    },

    /**
     * A page of every course, whatever its status, for staff: in catalogue order (position, title,
     * id; index courses_position_idx), after the key given. Each page counts its own lessons.
     */
    async staffPage(limit: number, after?: CourseListKey) {
      const page = after
        ? sql`(${courses.position}, ${courses.title}, ${courses.id}) > (${after.position}::int, ${after.title}::text, ${after.id}::text)`
        : undefined;
      return db
        .select({
          ...courseColumns,
          lesson_count: sql<number>`(select count(*) from ${lessons} where ${lessons.courseId} = ${courses.id})`.mapWith(Number),
          position: courses.position,
        })
        .from(courses)
        .where(page)
        .orderBy(asc(courses.position), asc(courses.title), asc(courses.id))
        .limit(limit);
    },

    /** A course's place in the staff's list (null once it is gone), from the id a page link names. */
    async staffListKey(id: string): Promise<CourseListKey | null> {
      const [row] = await db
        .select({ position: courses.position, title: courses.title, id: courses.id })
        .from(courses)
        .where(eq(courses.id, id));
      return row ?? null;
    },

    async findById(id: string) {
      const [row] = await db
        .select(courseColumns)
        .from(courses)
        .leftJoin(lessons, eq(lessons.courseId, courses.id))
        .where(eq(courses.id, id))
        .groupBy(courses.id);
      return row ?? null;
    },

    /**
     * Where a member stands with a course, for its prerequisite and its dripped lessons: when they
     * started it, whether staff opened it early for them, and the published course it builds on
     * with whether they completed it (see `meetsPrerequisite`). One read, by primary keys.
     */
    async learnerStanding(memberId: string | null, courseId: string): Promise<LearnerStanding> {
      const member = memberId ?? sql`null::uuid`;
      type Row = {
        started_at: string | Date | null;
        opened_early: boolean;
        lessons_opened_early: string[] | null;
        id: string | null;
        title: string | null;
        completed: boolean;
      };
      const result = await db.execute(sql`
        select
          (select e.enrolled_at from enrolments e where e.member_id = ${member} and e.course_id = ${courseId}) as started_at,
          exists (select 1 from early_openings o where o.member_id = ${member} and o.course_id = ${courseId}) as opened_early,
          array(select o.lesson_id from lesson_early_openings o join lessons l on l.id = o.lesson_id
                where o.member_id = ${member} and l.course_id = ${courseId}) as lessons_opened_early,
          required.id, required.title,
          coalesce((
            select e.completed_lessons >= (select count(*) from lessons l where l.course_id = required.id)
            from enrolments e where e.member_id = ${member} and e.course_id = required.id
          ), false) and exists (select 1 from lessons l where l.course_id = required.id) as completed
        from (select 1) as one
        left join courses course on course.id = ${courseId}
        left join courses required on required.id = course.prerequisite_course_id and required.status = 'published'`);
      const row = (result as unknown as { rows: Row[] }).rows[0]!;
      const startedAt = row.started_at === null ? null : new Date(row.started_at);
      return {
        startedAt,
        openedEarly: row.opened_early,
        lessonsOpenedEarly: row.lessons_opened_early ?? [],
        prerequisite:
          row.id && row.title
            ? { id: row.id, title: row.title, completed: row.completed, started: startedAt !== null, openedEarly: row.opened_early }
            : null,
      };
    },

    /**
     * Dripped lessons that opened to a member in the day before `now` (midnight, their zone, after
     * they started the course) and that they were not told of yet, a batch at a time; none of a
     * course staff opened early for them (it was open already). The dripped-lessons index finds the
     * few lessons with a schedule; each member's enrolment is read by its course.
     */
    async openingsDue(now: Date, limit: number) {
      const zone = sql`coalesce(${members.timeZone}, ${DEFAULT_TIME_ZONE})`;
      const opening = sql`case
        when ${lessons.opensOn} is not null then ${lessons.opensOn}::timestamp at time zone ${zone}
        else ((${enrolments.enrolledAt} at time zone ${zone})::date + ${lessons.opensAfterDays})::timestamp at time zone ${zone}
      end`;
      return db
        .select({
          member: {
            id: members.id,
            name: members.name,
            email: members.email,
            emailOptOut: members.emailOptOut,
            membershipTier: members.membershipTier,
          },
          lesson: { id: lessons.id, title: lessons.title },
          course: { id: courses.id, title: courses.title, tier: courses.tier },
        })
        .from(lessons)
        .innerJoin(courses, and(eq(courses.id, lessons.courseId), eq(courses.status, 'published')))
        .innerJoin(enrolments, eq(enrolments.courseId, lessons.courseId))
        .innerJoin(members, eq(members.id, enrolments.memberId))
        .where(
          and(
            sql`(${lessons.opensAfterDays} is not null or ${lessons.opensOn} is not null)`,
            sql`${opening} <= ${now.toISOString()}::timestamptz`,
            sql`${opening} > ${new Date(now.getTime() - DRIP_TELLS_FOR_MS).toISOString()}::timestamptz`,
            sql`${opening} > ${enrolments.enrolledAt}`,
            sql`not exists (select 1 from ${lessonOpeningsTold} told where told.member_id = ${members.id} and told.lesson_id = ${lessons.id})`,
            sql`not exists (select 1 from ${earlyOpenings} early where early.member_id = ${members.id} and early.course_id = ${courses.id})`,
            sql`not exists (select 1 from ${lessonEarlyOpenings} early where early.member_id = ${members.id} and early.lesson_id = ${lessons.id})`,
          ),
        )
        .limit(limit);
    },

    /** The courses staff opened early for a member, in the order they did, a page after `after` (Download my data). */
    async earlyOpeningsOf(memberId: string, limit: number, after?: { openedAt: string; courseId: string }) {
      return db
        .select({
          courseId: earlyOpenings.courseId,
          reason: earlyOpenings.reason,
          openedAt: earlyOpenings.createdAt,
          openedKey: sql<string>`${earlyOpenings.createdAt}::text`,
        })
        .from(earlyOpenings)
        .where(
          and(
            eq(earlyOpenings.memberId, memberId),
            after
              ? sql`(${earlyOpenings.createdAt}, ${earlyOpenings.courseId}) > (${after.openedAt}::timestamptz, ${after.courseId})`
              : undefined,
          ),
        )
        .orderBy(asc(earlyOpenings.createdAt), asc(earlyOpenings.courseId))
        .limit(limit);
    },

    /** Whether some lesson of the course opens later than the course (drip). */
    async hasDrippedLessons(courseId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: lessons.id })
        .from(lessons)
        .where(and(eq(lessons.courseId, courseId), sql`(${lessons.opensAfterDays} is not null or ${lessons.opensOn} is not null)`))
        .limit(1);
      return row !== undefined;
    },

    /** Claims telling a member of a lesson's opening; false when another process (or an earlier run) did. */
    async claimOpeningTold(memberId: string, lessonId: string): Promise<boolean> {
      const claimed = await db
        .insert(lessonOpeningsTold)
        .values({ memberId, lessonId })
        .onConflictDoNothing()
        .returning({ memberId: lessonOpeningsTold.memberId });
      return claimed.length > 0;
    },

    /** Staff open a course to one member before its prerequisite is done; once (a second time changes nothing). */
    async openLessonEarly(opening: { memberId: string; lessonId: string; reason: string; openedById: string | null }): Promise<boolean> {
      const inserted = await db
        .insert(lessonEarlyOpenings)
        .values(opening)
        .onConflictDoNothing()
        .returning({ memberId: lessonEarlyOpenings.memberId });
      return inserted.length > 0;
    },

    /** The dripped lessons of published courses, in catalogue order: what staff may open early to a member. */
    async drippedLessons(limit: number) {
      return db
        .select({ id: lessons.id, title: lessons.title, courseId: courses.id, courseTitle: courses.title })
        .from(lessons)
        .innerJoin(courses, and(eq(courses.id, lessons.courseId), eq(courses.status, 'published')))
        .where(sql`(${lessons.opensAfterDays} is not null or ${lessons.opensOn} is not null)`)
        .orderBy(asc(courses.position), asc(courses.title), asc(lessons.position))
        .limit(limit);
    },

    /** The member's lessons staff opened early, oldest first, after `after`: their data, for 'Download my data'. */
    async lessonEarlyOpeningsOf(memberId: string, limit: number, after?: { openedAt: string; lessonId: string }) {
      return db
        .select({
          lessonId: lessonEarlyOpenings.lessonId,
          reason: lessonEarlyOpenings.reason,
          openedAt: lessonEarlyOpenings.createdAt,
          openedKey: sql<string>`${lessonEarlyOpenings.createdAt}::text`,
        })
        .from(lessonEarlyOpenings)
        .where(
          and(
            eq(lessonEarlyOpenings.memberId, memberId),
            after
              ? sql`(${lessonEarlyOpenings.createdAt}, ${lessonEarlyOpenings.lessonId}) > (${after.openedAt}::timestamptz, ${after.lessonId})`
              : undefined,
          ),
        )
        .orderBy(asc(lessonEarlyOpenings.createdAt), asc(lessonEarlyOpenings.lessonId))
        .limit(limit);
    },

    async openEarly(opening: { memberId: string; courseId: string; reason: string; openedById: string | null }): Promise<boolean> {
      const inserted = await db.insert(earlyOpenings).values(opening).onConflictDoNothing().returning({ memberId: earlyOpenings.memberId });
      return inserted.length > 0;
    },

    /** The catalogue's size: published courses. */
    async count(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(courses).where(eq(courses.status, 'published'));
      return row?.value ?? 0;
    },

    /** A course's lessons in order, with who may open each one's stored video (its file's own visibility). */
    async listLessons(courseId: string) {
      return db
        .select({ ...getTableColumns(lessons), videoFileAccessTier: uploadedFiles.accessTier })
        .from(lessons)
        .leftJoin(uploadedFiles, eq(uploadedFiles.id, lessons.videoFileId))
        .where(eq(lessons.courseId, courseId))
        .orderBy(asc(lessons.position));
    },

    /** The attachments of a course's lessons, with the files' names and who may open them. */
    async listAttachments(courseId: string) {
      return db
        .select({
          lessonId: lessonAttachments.lessonId,
          fileId: uploadedFiles.id,
          filename: uploadedFiles.filename,
          accessTier: uploadedFiles.accessTier,
        })
        .from(lessonAttachments)
        .innerJoin(lessons, eq(lessons.id, lessonAttachments.lessonId))
        .innerJoin(uploadedFiles, eq(uploadedFiles.id, lessonAttachments.fileId))
        .where(eq(lessons.courseId, courseId))
        .orderBy(asc(lessonAttachments.lessonId), asc(lessonAttachments.position));
    },

    /**
     * Per course (all, or those named): members enrolled, those who finished (its certificate, or
     * every lesson done), and their average progress, from the lessons each enrolment has completed
     * (kept with the rows, migration 0014): one pass over the enrolments, no progress row read.
     */
    /**
     * Each course's learners, those who completed it (hold its certificate) and their average progress,
     * read from the counts the triggers keep (migration 0022): one row per course, whatever the enrolments.
     */
    async learnerCounts(courseIds?: string[]) {
      const only = (column: SQL) => (courseIds ? sql`where ${column} in ${courseIds.length > 0 ? courseIds : ['']}` : sql``);
      const result = await db.execute(sql`
        with totals as (select course_id, count(*)::int as lessons from ${lessons} ${only(sql`course_id`)} group by course_id)
        select n.course_id as "courseId",
          n.enrolled,
          least(n.certified, n.enrolled) as completed,
          coalesce(round(least(100, n.completed_lessons * 100.0 / nullif(n.enrolled::bigint * t.lessons, 0))), 0)::int as "averageProgress"
        from ${courseLearnerCounts} n
        left join totals t on t.course_id = n.course_id
        ${only(sql`n.course_id`)}`);
      return (result as unknown as { rows: { courseId: string; enrolled: number; completed: number; averageProgress: number }[] }).rows;
    },

    /** Opens the courses whose Gold early access has ended to their own tier; returns them. */
    async endEarlyAccess(now: Date): Promise<{ id: string; title: string; tier: Tier; status: string }[]> {
      // Looked for first: an update that finds nothing still counts as a change to the catalogue,
      // and this runs every minute in every process.
      const [due] = await db.select({ id: courses.id }).from(courses).where(lte(courses.earlyAccessUntil, now)).limit(1);
      if (!due) return [];
      return db
        .update(courses)
        .set({ tier: sql`${courses.earlyAccessTier}`, earlyAccessTier: null, earlyAccessUntil: null })
        .where(lte(courses.earlyAccessUntil, now))
        .returning({ id: courses.id, title: courses.title, tier: courses.tier, status: courses.status });
    },

    /** Holds the course row until the transaction ends: an enrolment cannot slip in meanwhile. */
    async lockCourse(id: string): Promise<void> {
      await db.select({ id: courses.id }).from(courses).where(eq(courses.id, id)).for('update');
    },

    /** The course's quiz lessons with no question yet: no one could pass them, nor finish the course. */
    async unwrittenQuizzes(courseId: string): Promise<string[]> {
      const rows = await db
        .select({ title: lessons.title })
        .from(lessons)
        .where(
          and(
            eq(lessons.courseId, courseId),
            eq(lessons.kind, 'quiz'),
            sql`not exists (select 1 from ${quizQuestions} where ${quizQuestions.lessonId} = ${lessons.id})`,
          ),
        )
        .orderBy(asc(lessons.position));
      return rows.map((row) => row.title);
    },

    async hasEnrolments(courseId: string): Promise<boolean> {
      const [row] = await db.select({ value: count() }).from(enrolments).where(eq(enrolments.courseId, courseId));
      return (row?.value ?? 0) > 0;
    },

    async idTaken(id: string): Promise<boolean> {
      const [row] = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, id));
      if (row) return true;
      const [lesson] = await db.select({ id: lessons.id }).from(lessons).where(eq(lessons.id, id));
      return lesson !== undefined;
    },

    async insertCourse(course: NewCourse) {
      await db.insert(courses).values(course);
    },

    async updateCourse(id: string, changes: Partial<NewCourse>) {
      if (Object.keys(changes).length > 0) await db.update(courses).set(changes).where(eq(courses.id, id));
    },

    async deleteCourse(id: string) {
      await db.delete(courses).where(eq(courses.id, id));
    },

    async findLesson(id: string) {
      const [row] = await db.select().from(lessons).where(eq(lessons.id, id));
      return row ?? null;
    },

    async insertLesson(lesson: Omit<NewLesson, 'position'>) {
      const [last] = await db
        .select({ value: max(lessons.position) })
        .from(lessons)
        .where(eq(lessons.courseId, lesson.courseId));
      await db.insert(lessons).values({ ...lesson, position: (last?.value ?? 0) + 1 });
    },

    async updateLesson(id: string, changes: Partial<NewLesson>) {
      await db.update(lessons).set(changes).where(eq(lessons.id, id));
    },

    async deleteLesson(id: string) {
      await db.delete(lessons).where(eq(lessons.id, id));
    },

    /** Positions 1..n in the given order. */
    async setLessonOrder(courseId: string, lessonIds: string[]) {
      for (const [index, id] of lessonIds.entries()) {
        await db
          .update(lessons)
          .set({ position: index + 1 })
          .where(and(eq(lessons.id, id), eq(lessons.courseId, courseId)));
      }
    },

    async setAttachments(lessonId: string, fileIds: string[]) {
      await db.delete(lessonAttachments).where(eq(lessonAttachments.lessonId, lessonId));
      if (fileIds.length > 0) {
        await db.insert(lessonAttachments).values(fileIds.map((fileId, index) => ({ lessonId, fileId, position: index + 1 })));
      }
    },

    /** Replaces the lesson's captions with these (a language left out goes). */
    async setCaptions(lessonId: string, captions: { language: CaptionLanguage; fileId: string; cues: Cue[]; transcript: string }[]) {
      await db.delete(lessonCaptions).where(eq(lessonCaptions.lessonId, lessonId));
      if (captions.length > 0) await db.insert(lessonCaptions).values(captions.map((each) => ({ lessonId, ...each })));
    },

    /** The captions of a course's lessons: their languages and files (not their cues). */
    async listCaptions(courseId: string) {
      return db
        .select({
          lessonId: lessonCaptions.lessonId,
          language: lessonCaptions.language,
          fileId: lessonCaptions.fileId,
          filename: uploadedFiles.filename,
        })
        .from(lessonCaptions)
        .innerJoin(lessons, eq(lessons.id, lessonCaptions.lessonId))
        .innerJoin(uploadedFiles, eq(uploadedFiles.id, lessonCaptions.fileId))
        .where(eq(lessons.courseId, courseId))
        .orderBy(asc(lessonCaptions.lessonId), asc(lessonCaptions.language));
    },

    /** A lesson's cues in one language, with the course the rules need; null when it has none. */
    async transcriptOf(lessonId: string, language: CaptionLanguage) {
      const [row] = await db
        .select({
          cues: lessonCaptions.cues,
          courseId: lessons.courseId,
          freePreview: lessons.freePreview,
          opensAfterDays: lessons.opensAfterDays,
          opensOn: lessons.opensOn,
        })
        .from(lessonCaptions)
        .innerJoin(lessons, eq(lessons.id, lessonCaptions.lessonId))
        .where(and(eq(lessonCaptions.lessonId, lessonId), eq(lessonCaptions.language, language)));
      return row ?? null;
    },

    /**
     * The lessons whose transcripts hold these words (English stemming, the GIN index of migration
     * 0046): one course's in its order, or every published course's, best matches first; at most
     * `limit`, each with its course and its first `momentsPerLesson` cues that hold them, matched
     * the same way ('comparables' finds 'comparable').
     */
    async searchTranscripts(within: { courseId: string } | 'published courses', words: string, limit: number, momentsPerLesson: number) {
      const query = sql`websearch_to_tsquery('english', ${words})`;
      const document = sql`to_tsvector('english', ${lessonCaptions.transcript})`;
      return db
        .select({
          courseId: courses.id,
          courseTitle: courses.title,
          courseTier: courses.tier,
          lessonId: lessons.id,
          title: lessons.title,
          freePreview: lessons.freePreview,
          opensAfterDays: lessons.opensAfterDays,
          opensOn: lessons.opensOn,
          moments: sql<{ start: number; text: string }[]>`(
            select coalesce(jsonb_agg(jsonb_build_object('start', (cue->>'start')::float8, 'text', cue->>'text') order by position), '[]'::jsonb)
            from (
              select cue, position from jsonb_array_elements(${lessonCaptions.cues}) with ordinality as cues(cue, position)
              where to_tsvector('english', cue->>'text') @@ ${query}
              order by position limit ${momentsPerLesson}
            ) as matching
          )`,
        })
        .from(lessonCaptions)
        .innerJoin(lessons, eq(lessons.id, lessonCaptions.lessonId))
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .where(
          and(
            within === 'published courses' ? eq(courses.status, 'published') : eq(lessons.courseId, within.courseId),
            sql`${document} @@ ${query}`,
          ),
        )
        .orderBy(
          ...(within === 'published courses' ? [sql`ts_rank(${document}, ${query}) desc`, asc(courses.title)] : []),
          asc(lessons.position),
          asc(lessonCaptions.language),
        )
        .limit(limit);
    },

    /** The files with these ids that exist, with their kind and who may open them. */
    async filesByIds(ids: string[]) {
      if (ids.length === 0) return [];
      return db
        .select({
          id: uploadedFiles.id,
          filename: uploadedFiles.filename,
          contentType: uploadedFiles.contentType,
          accessTier: uploadedFiles.accessTier,
          storageKey: uploadedFiles.storageKey,
        })
        .from(uploadedFiles)
        .where(inArray(uploadedFiles.id, ids));
    },
  };
}

type CoursesRepository = ReturnType<typeof createCoursesRepository>;
export type CourseRow = Awaited<ReturnType<CoursesRepository['list']>>[number];
export type TranscriptSearchRow = Awaited<ReturnType<CoursesRepository['searchTranscripts']>>[number];
