import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  COURSE_NOT_FOUND,
  type CourseAuthoringService,
  type CourseInput,
  type CourseStatus,
  type LessonInput,
  type StaffCourse,
  type StaffCourseDetail,
} from '../../common/courses.contract.ts';
import { badRequest, conflict, notFound } from '../../common/errors.ts';
import { readCaptions } from '../files/captions.ts';
import type { FileStorage } from '../files/storage.ts';
import { COURSE_PREREQUISITE_CHAIN_MAX, NOTIFICATION_BODY_MAX, PAGE_SIZE } from '../../common/limits.ts';
import { slugOf } from '../../common/slug.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { publicImageUrl } from '../files/public-image.ts';
import { decodeCursor, INVALID_CURSOR, pageOf } from '../lists/keyset.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import { announce } from '../notifications/notification-jobs.ts';
import type { CourseListKey, CourseRow } from './courses.repository.ts';
import { publicCourse } from './courses.service.ts';
import { chosenTier, tierColumns } from './early-access.ts';

const LESSON_NOT_FOUND = 'Lesson not found';
const LESSON_KIND_STAYS = 'A lesson stays the kind it was added as: add a new lesson for a quiz, or for a video.';
const NO_LEARNERS = { enrolled: 0, completed: 0, averageProgress: 0 };

/** The staff's list of courses goes on after a course: its position and id (its title is read back). */
const CourseListCursor = z.tuple([z.number().int().min(-2_147_483_648).max(2_147_483_647), z.string().min(1).max(100)]);

/** Where a course without an uploaded image finds its cover. */
const artworkUrl = (courseId: string) => `/api/courses/${courseId}/artwork.svg`;

export function createCourseAuthoringService(
  data: DataAccess,
  learning: { issueDueCertificates(courseId: string): Promise<number> },
  /** Reads a captions file from the file store (the captions' cues are kept for the transcript). */
  storage: Pick<FileStorage, 'get'>,
): CourseAuthoringService {
  async function staffCourse(
    row: CourseRow,
    counts?: { enrolled: number; completed: number; averageProgress: number },
  ): Promise<StaffCourse> {
    const learners = counts ?? (await data.courses.learnerCounts([row.id]))[0];
    return {
      ...publicCourse(row),
      status: row.status,
      certificate_shows_score: row.certificateShowsScore,
      thumbnail_file_id: row.thumbnailFileId,
      prerequisite_course_id: row.prerequisiteCourseId,
      enrolled_count: learners?.enrolled ?? 0,
      completed_count: learners?.completed ?? 0,
      average_progress: learners?.averageProgress ?? 0,
      created_at: row.createdAt.toISOString(),
    };
  }

  async function detail(courseId: string): Promise<StaffCourseDetail> {
    const row = await data.courses.findById(courseId);
    if (!row) throw notFound(COURSE_NOT_FOUND);
    const [lessons, attachments, captions] = await Promise.all([
      data.courses.listLessons(courseId),
      data.courses.listAttachments(courseId),
      data.courses.listCaptions(courseId),
    ]);
    return {
      course: await staffCourse(row),
      lessons: lessons.map((lesson) => ({
        id: lesson.id,
        kind: lesson.kind,
        title: lesson.title,
        duration: lesson.duration,
        description: lesson.description,
        free_preview: lesson.freePreview,
        video_url: lesson.videoUrl ?? '',
        video_file_id: lesson.videoFileId,
        opens_after_days: lesson.opensAfterDays,
        opens_on: lesson.opensOn,
        attachments: attachments.filter((file) => file.lessonId === lesson.id).map((file) => ({ id: file.fileId, name: file.filename })),
        captions: captions
          .filter((each) => each.lessonId === lesson.id)
          .map((each) => ({ language: each.language, file_id: each.fileId, name: each.filename })),
      })),
    };
  }

  /** A free id made from the title (a course) or from the course's id (a lesson). */
  async function freeId(tx: Repositories, base: string): Promise<string> {
    if (!(await tx.courses.idTaken(base))) return base;
    for (let attempt = 2; attempt < 50; attempt++) {
      const candidate = `${base}-${attempt}`;
      if (!(await tx.courses.idTaken(candidate))) return candidate;
    }
    return `${base}-${randomBytes(4).toString('hex')}`;
  }

  /** The address of an uploaded thumbnail (null: the generated artwork). */
  const uploadedThumbnail = async (fileId: string | null) =>
    fileId ? publicImageUrl(data, fileId, 'thumbnail_file_id', 'thumbnail') : null;

  /** The lesson's video and attachments must be files in the library, the video a video. */
  async function checkLessonFiles(input: LessonInput) {
    const ids = [...new Set([...(input.video_file_id ? [input.video_file_id] : []), ...input.attachment_file_ids])];
    const files = await data.courses.filesByIds(ids);
    const missing = ids.find((id) => !files.some((file) => file.id === id));
    if (missing)
      throw badRequest(
        'A chosen file is not in the file library.',
        missing === input.video_file_id ? 'video_file_id' : 'attachment_file_ids',
      );
    const video = files.find((file) => file.id === input.video_file_id);
    if (video && !video.contentType.startsWith('video/')) throw badRequest('The lesson video must be a video file.', 'video_file_id');
  }

  const lessonColumns = (input: LessonInput) => ({
    kind: input.kind,
    title: input.title,
    duration: input.duration,
    description: input.description,
    freePreview: input.free_preview,
    videoUrl: input.video_url || null,
    videoFileId: input.video_file_id,
    opensAfterDays: input.opens_after_days,
    opensOn: input.opens_on,
  });

  async function lessonOf(lessonId: string) {
    const lesson = await data.courses.findLesson(lessonId);
    if (!lesson) throw notFound(LESSON_NOT_FOUND);
    return lesson;
  }

  /**
   * Where the page a link names starts: the course it names, read back for its title (a title is
   * too long for a page link). A course that is gone or moved makes the link out of date.
   */
  async function listKeyOf(cursor: string): Promise<CourseListKey> {
    const [position, id] = decodeCursor(cursor, CourseListCursor);
    const key = await data.courses.staffListKey(id);
    if (!key || key.position !== position) throw badRequest(INVALID_CURSOR);
    return key;
  }

  /**
   * The course a course may build on: another course, and not one that builds on this one, however
   * far back (else neither could ever be started).
   */
  async function checkedPrerequisite(courseId: string | null, prerequisiteId: string | null): Promise<string | null> {
    if (prerequisiteId === null) return null;
    if (prerequisiteId === courseId) throw badRequest('A course cannot build on itself.', 'prerequisite_course_id');
    let step = await data.courses.findById(prerequisiteId);
    if (!step) throw badRequest('Choose a course to complete first from the list.', 'prerequisite_course_id');
    const required = step.title;
    for (let depth = 0; step && depth < COURSE_PREREQUISITE_CHAIN_MAX; depth++) {
      if (step.prerequisiteCourseId === null) return prerequisiteId;
      if (step.prerequisiteCourseId === courseId) {
        throw badRequest(`“${required}” builds on this course already: neither could be started.`, 'prerequisite_course_id');
      }
      step = await data.courses.findById(step.prerequisiteCourseId);
    }
    if (step) throw badRequest(`A course may build on at most ${COURSE_PREREQUISITE_CHAIN_MAX} others in a row.`, 'prerequisite_course_id');
    return prerequisiteId;
  }

  async function existingCourse(courseId: string) {
    const row = await data.courses.findById(courseId);
    if (!row) throw notFound(COURSE_NOT_FOUND);
    return row;
  }

  return {
    // A page in catalogue order; the learner figures of its courses alone, from the counts kept with the rows.
    async list(viewer, query = {}) {
      requireStaffArea(viewer, 'content');
      const rows = await data.courses.staffPage(PAGE_SIZE.staffList + 1, query.before ? await listKeyOf(query.before) : undefined);
      const page = pageOf(
        rows,
        PAGE_SIZE.staffList,
        (row) => [row.position, row.id],
        (row) => row,
      );
      const counts = new Map((await data.courses.learnerCounts(page.items.map((row) => row.id))).map((each) => [each.courseId, each]));
      return {
        items: await Promise.all(page.items.map((row) => staffCourse(row, counts.get(row.id) ?? NO_LEARNERS))),
        next_cursor: page.next_cursor,
      };
    },

    async get(viewer, courseId) {
      requireStaffArea(viewer, 'content');
      return detail(courseId);
    },

    async create(viewer, input: CourseInput) {
      const staff = requireStaffArea(viewer, 'content');
      const thumbnail = await uploadedThumbnail(input.thumbnail_file_id);
      const prerequisite = await checkedPrerequisite(null, input.prerequisite_course_id);
      const id = await data.transaction(async (tx) => {
        const courseId = await freeId(tx, slugOf(input.title, 'course'));
        await tx.courses.insertCourse({
          id: courseId,
          title: input.title,
          description: input.description,
          category: input.category,
          ...tierColumns(input.tier, input.early_access_until),
          instructor: input.instructor,
          level: input.level,
          duration: input.duration,
          certificate: input.certificate,
          certificateShowsScore: input.certificate_shows_score,
          prerequisiteCourseId: prerequisite,
          thumbnail: thumbnail ?? artworkUrl(courseId),
          thumbnailFileId: input.thumbnail_file_id,
          status: 'draft',
          position: 1000,
        });
        await tx.audit.record({ actorEmail: staff.email, action: 'course.create', target: courseId, oldValue: null, newValue: input });
        return courseId;
      });
      return detail(id);
    },

    async update(viewer, courseId, input) {
      const staff = requireStaffArea(viewer, 'content');
      const before = await existingCourse(courseId);
      const {
        thumbnail_file_id: thumbnailFileId,
        tier,
        early_access_until: until,
        certificate_shows_score: certificateShowsScore,
        prerequisite_course_id: prerequisiteId,
        ...fields
      } = input;
      const prerequisite =
        prerequisiteId === undefined ? {} : { prerequisiteCourseId: await checkedPrerequisite(courseId, prerequisiteId) };
      const thumbnail = thumbnailFileId === undefined ? undefined : ((await uploadedThumbnail(thumbnailFileId)) ?? artworkUrl(courseId));
      const chosen = chosenTier(before);
      const tiers =
        tier === undefined && until === undefined ? {} : tierColumns(tier ?? chosen.tier, until === undefined ? chosen.until : until);
      await data.transaction(async (tx) => {
        await tx.courses.updateCourse(courseId, {
          ...fields,
          ...tiers,
          ...prerequisite,
          ...(certificateShowsScore !== undefined && { certificateShowsScore }),
          ...(thumbnail !== undefined && { thumbnailFileId, thumbnail }),
        });
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'course.update',
          target: courseId,
          oldValue: publicCourse(before),
          newValue: input,
        });
      });
      return detail(courseId);
    },

    async setStatus(viewer, courseId, status: CourseStatus) {
      const staff = requireStaffArea(viewer, 'content');
      const before = await existingCourse(courseId);
      await data.transaction(async (tx) => {
        // Checked under the course's lock, so a lesson removed at the same moment is counted.
        await tx.courses.lockCourse(courseId);
        const now = await tx.courses.findById(courseId);
        if (status === 'published' && !now?.lesson_count) throw conflict('Add at least one lesson before publishing the course.');
        const unwritten = status === 'published' ? await tx.courses.unwrittenQuizzes(courseId) : [];
        if (unwritten.length > 0) throw conflict(`Write the questions of the quiz “${unwritten[0]}” before publishing the course.`);
        // Members who started a course keep it: it can be archived, never taken back to a draft.
        if (status === 'draft' && (await tx.courses.hasEnrolments(courseId))) {
          throw conflict('Members have started this course: archive it instead of making it a draft.');
        }
        await tx.courses.updateCourse(courseId, { status });
        // A course in the catalogue is news for the members whose plan opens it (Gold first, during early access).
        if (status === 'published' && now)
          await announce(tx, {
            kind: 'course',
            groupKey: `course:${courseId}`,
            title: `New course: ${now.title}`,
            body: now.description.slice(0, NOTIFICATION_BODY_MAX),
            url: `/courses/${courseId}`,
            requiredTier: now.tier,
          });
        await tx.audit.record({
          actorEmail: staff.email,
          action: `course.${status}`,
          target: courseId,
          oldValue: before.status,
          newValue: status,
        });
      });
      return detail(courseId);
    },

    async remove(viewer, courseId) {
      const staff = requireStaffArea(viewer, 'content');
      const before = await existingCourse(courseId);
      await data.transaction(async (tx) => {
        await tx.courses.lockCourse(courseId);
        if (await tx.courses.hasEnrolments(courseId)) {
          throw conflict('Members have enrolled in this course, so it cannot be deleted: archive it to take it out of the catalogue.');
        }
        await tx.courses.deleteCourse(courseId);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'course.delete',
          target: courseId,
          oldValue: publicCourse(before),
          newValue: null,
        });
      });
    },

    async addLesson(viewer, courseId, input) {
      const staff = requireStaffArea(viewer, 'content');
      await existingCourse(courseId);
      await checkLessonFiles(input);
      const captions = await readCaptions(data, storage, input.captions);
      await data.transaction(async (tx) => {
        const id = await freeId(tx, `${courseId.slice(0, 80)}-${randomBytes(3).toString('hex')}`);
        await tx.courses.insertLesson({ id, courseId, ...lessonColumns(input) });
        await tx.courses.setAttachments(id, input.attachment_file_ids);
        await tx.courses.setCaptions(id, captions);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'lesson.create',
          target: courseId,
          oldValue: null,
          newValue: { id, ...input },
        });
      });
      return detail(courseId);
    },

    async updateLesson(viewer, lessonId, input) {
      const staff = requireStaffArea(viewer, 'content');
      const lesson = await lessonOf(lessonId);
      // A member's progress in a video lesson is no pass of a quiz, and a quiz's tries no progress in a video.
      if (lesson.kind !== input.kind) throw conflict(LESSON_KIND_STAYS);
      await checkLessonFiles(input);
      const captions = await readCaptions(data, storage, input.captions);
      await data.transaction(async (tx) => {
        await tx.courses.updateLesson(lessonId, lessonColumns(input));
        await tx.courses.setAttachments(lessonId, input.attachment_file_ids);
        await tx.courses.setCaptions(lessonId, captions);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'lesson.update',
          target: lesson.courseId,
          oldValue: { id: lesson.id, title: lesson.title },
          newValue: { id: lesson.id, ...input },
        });
      });
      return detail(lesson.courseId);
    },

    // Progress on a removed lesson goes with it; certificates already earned stay (they record the past).
    async removeLesson(viewer, lessonId) {
      const staff = requireStaffArea(viewer, 'content');
      const lesson = await lessonOf(lessonId);
      await existingCourse(lesson.courseId);
      await data.transaction(async (tx) => {
        // Checked under the course's lock: two removals at once cannot both take the last lessons.
        await tx.courses.lockCourse(lesson.courseId);
        const course = await tx.courses.findById(lesson.courseId);
        if (course?.status === 'published' && course.lesson_count <= 1) {
          throw conflict('A published course needs at least one lesson: add another first, or unpublish or archive the course.');
        }
        await tx.courses.deleteLesson(lessonId);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'lesson.delete',
          target: lesson.courseId,
          oldValue: { id: lesson.id, title: lesson.title },
          newValue: null,
        });
      });
      // Members whose only missing lesson was this one have now finished the course.
      await learning.issueDueCertificates(lesson.courseId);
      return detail(lesson.courseId);
    },

    async reorderLessons(viewer, courseId, lessonIds) {
      const staff = requireStaffArea(viewer, 'content');
      await existingCourse(courseId);
      const current = (await data.courses.listLessons(courseId)).map((lesson) => lesson.id);
      const sameSet =
        lessonIds.length === current.length && new Set(lessonIds).size === current.length && lessonIds.every((id) => current.includes(id));
      if (!sameSet) throw badRequest('Give every lesson of the course exactly once, in the new order.', 'lesson_ids');
      await data.transaction(async (tx) => {
        await tx.courses.setLessonOrder(courseId, lessonIds);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'lesson.reorder',
          target: courseId,
          oldValue: current,
          newValue: lessonIds,
        });
      });
      return detail(courseId);
    },
  };
}
