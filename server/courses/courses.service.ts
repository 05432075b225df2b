import { CAPTION_LANGUAGES } from '../../common/course-kinds.ts';
import {
  COURSE_NOT_FOUND,
  type Course,
  type CoursesService,
  type LessonPlace,
  type TranscriptMatches,
} from '../../common/courses.contract.ts';
import { CAPTIONS } from '../../common/limits.ts';
import { forbidden, notFound } from '../../common/errors.ts';
import {
  mayOpenAttachment,
  mayOpenCourse,
  mayOpenServedFile,
  mayWatchLesson,
  lessonOpening,
  lessonOpensLater,
  lessonStillClosed,
  meetsPrerequisite,
  prerequisiteFirst,
  refuseFile,
  type LessonOpening,
  type LessonSchedule,
} from '../../common/policies.ts';
import { DEFAULT_TIME_ZONE } from '../../common/time-zones.ts';
import type { Viewer } from '../../common/viewer.ts';
import type { DataAccess } from '../repositories.ts';
import type { CourseRow, TranscriptSearchRow } from './courses.repository.ts';

/** A course as the catalogue shows it (status and file ids are staff matters). */
export const publicCourse = (row: CourseRow): Course => ({
  id: row.id,
  title: row.title,
  description: row.description,
  category: row.category,
  tier: row.tier,
  thumbnail: row.thumbnail,
  duration: row.duration,
  lesson_count: row.lesson_count,
  instructor: row.instructor,
  level: row.level,
  certificate: row.certificate,
  early_access:
    row.earlyAccessTier && row.earlyAccessUntil ? { opens_to: row.earlyAccessTier, opens_at: row.earlyAccessUntil.toISOString() } : null,
  prerequisite: row.prerequisiteCourseId && row.prerequisiteTitle ? { id: row.prerequisiteCourseId, title: row.prerequisiteTitle } : null,
});

/** Refuses (403, saying what to complete first) a member who has not met the course's prerequisite. */
export async function requirePrerequisiteMet(courses: Pick<CoursesService, 'unmetPrerequisite'>, viewer: Viewer, courseId: string) {
  const prerequisite = await courses.unmetPrerequisite(viewer, courseId);
  if (prerequisite) throw forbidden(prerequisiteFirst(prerequisite.title));
}

/** Refuses (403, saying why) a lesson not open to the viewer yet: its course's prerequisite, or its drip. */
export async function requireLessonOpen(courses: Pick<CoursesService, 'lessonRefusal'>, viewer: Viewer, lesson: LessonPlace) {
  const refusal = await courses.lessonRefusal(viewer, lesson);
  if (refusal) throw forbidden(refusal);
}

/** The moments of one lesson a transcript search shows at most. */
const MOMENTS_PER_LESSON = 5;

/**
 * Found lessons as the viewer may see them, a lesson once whatever the languages that matched: the
 * moments where the viewer may watch it; a lesson above their plan named as locked, never quoted.
 */
function transcriptMatches(
  viewer: Viewer,
  rows: TranscriptSearchRow[],
  gates: Map<string, { refusal: (lesson: LessonSchedule & { freePreview: boolean; id: string }) => string | null }>,
): TranscriptMatches {
  const byLesson = new Map<string, TranscriptMatches[number]>();
  for (const row of rows) {
    const opens =
      mayWatchLesson(viewer, { courseTier: row.courseTier, freePreview: row.freePreview }) &&
      !gates.get(row.courseId)?.refusal({ ...row, id: row.lessonId });
    const match = byLesson.get(row.lessonId) ?? {
      course_id: row.courseId,
      course_title: row.courseTitle,
      lesson_id: row.lessonId,
      lesson_title: row.title,
      locked: !opens,
      moments: [],
    };
    if (opens) match.moments.push(...row.moments.slice(0, MOMENTS_PER_LESSON - match.moments.length));
    byLesson.set(row.lessonId, match);
  }
  return [...byLesson.values()];
}

export function createCoursesService(data: DataAccess): CoursesService {
  const { courses } = data;

  /** Published courses for all; an archived one for the members enrolled in it; drafts for staff. */
  async function visible(viewer: Viewer, row: CourseRow | null): Promise<CourseRow | null> {
    if (!row) return null;
    const member = viewer.member;
    return (await mayOpenCourse(viewer, row, async () => member !== null && data.learning.isEnrolled(member.id, row.id))) ? row : null;
  }

  /**
   * What of a course is open to the viewer now: the course it builds on while they have not met it,
   * and each lesson's opening while its schedule keeps it closed (in the member's zone).
   */
  async function gateOf(viewer: Viewer, courseId: string) {
    const standing = await courses.learnerStanding(viewer.member?.id ?? null, courseId);
    const zone = viewer.member?.timeZone ?? DEFAULT_TIME_ZONE;
    const now = new Date();
    const unmet = meetsPrerequisite(viewer, standing.prerequisite)
      ? null
      : { id: standing.prerequisite!.id, title: standing.prerequisite!.title };
    /** When the lesson opens while its schedule keeps it closed to the viewer; null once it is open. */
    const opensLater = (lesson: LessonSchedule & { id: string }): LessonOpening => {
      const opening = lessonOpening(lesson, standing.startedAt, zone);
      const openedEarly = standing.openedEarly || standing.lessonsOpenedEarly.includes(lesson.id);
      return lessonStillClosed(viewer, opening, openedEarly, now) ? opening : null;
    };
    /** Why the lesson is not open to the viewer yet, or null; a free preview is open to all. */
    const refusal = (lesson: LessonSchedule & { freePreview: boolean; id: string }): string | null => {
      if (lesson.freePreview) return null;
      if (unmet) return prerequisiteFirst(unmet.title);
      const later = opensLater(lesson);
      return later ? lessonOpensLater(lesson, later, zone) : null;
    };
    return { unmet, opensLater, refusal };
  }

  /** Of the courses of these rows, the gate of each (a page's worth: a read each). */
  async function gatesOf(viewer: Viewer, rows: { courseId: string }[]) {
    const courseIds = [...new Set(rows.map((row) => row.courseId))];
    const gates = await Promise.all(courseIds.map(async (id) => [id, await gateOf(viewer, id)] as const));
    return new Map(gates);
  }

  async function get(viewer: Viewer, courseId: string) {
    const course = await visible(viewer, await courses.findById(courseId));
    if (!course) throw notFound(COURSE_NOT_FOUND);
    return course;
  }

  return {
    list: async () => (await courses.list()).filter((row) => row.status === 'published').map(publicCourse),
    find: async (viewer, courseId) => {
      const row = await visible(viewer, await courses.findById(courseId));
      return row && publicCourse(row);
    },
    get: async (viewer, courseId) => publicCourse(await get(viewer, courseId)),

    // A lesson's video and attachments go only to a member whose tier reaches the course's tier,
    // except a free preview's video, which everyone may watch.
    // So does a course that builds on another, once the member completed that one.
    async lessons(viewer, courseId) {
      const course = await get(viewer, courseId);
      const [rows, attachments, captions, gate] = await Promise.all([
        courses.listLessons(course.id),
        courses.listAttachments(course.id),
        courses.listCaptions(course.id),
        gateOf(viewer, course.id),
      ]);
      return rows.map((lesson) => {
        const place = { courseTier: course.tier, freePreview: lesson.freePreview };
        const notYet = gate.refusal(lesson) !== null;
        const watches = mayWatchLesson(viewer, place) && !notYet;
        const later = lesson.freePreview ? null : gate.opensLater(lesson);
        // A stored video also keeps its file's own visibility, as its route does: no link that answers 403.
        const opens =
          watches &&
          (!lesson.videoFileId ||
            mayOpenServedFile(viewer, { accessTier: lesson.videoFileAccessTier }, [
              {
                as: 'lesson video',
                lessonId: lesson.id,
                courseId: course.id,
                opensAfterDays: lesson.opensAfterDays,
                opensOn: lesson.opensOn,
                ...place,
              },
            ]));
        return {
          id: lesson.id,
          kind: lesson.kind,
          title: lesson.title,
          duration: lesson.duration,
          description: lesson.description,
          // A stored video goes through its own tier check; an external one is linked as it is.
          video_url: opens ? (lesson.videoFileId ? `/api/lessons/${lesson.id}/video` : lesson.videoUrl || null) : null,
          has_video: lesson.videoFileId !== null || Boolean(lesson.videoUrl),
          free_preview: lesson.freePreview,
          attachments: attachments
            .filter((file) => file.lessonId === lesson.id)
            .map((file) => ({
              name: file.filename,
              // The file keeps its own visibility too: /api/files/:id checks it again.
              url: mayOpenAttachment(viewer, course, file) && !notYet ? `/api/files/${file.fileId}` : null,
            })),
          // Captions open where the video opens (its place's rule, as on their route).
          captions: captions
            .filter((each) => each.lessonId === lesson.id)
            .map((each) => ({
              language: each.language,
              label: CAPTION_LANGUAGES[each.language],
              url: watches ? `/api/lessons/${lesson.id}/captions/${each.language}` : null,
            })),
          // A dripped lesson still closed to the viewer: when it opens.
          opens: later && {
            at: later instanceof Date ? later.toISOString() : null,
            days_after_start: lesson.opensAfterDays,
          },
        };
      });
    },

    async transcript(viewer, lessonId, language) {
      const found = await courses.transcriptOf(lessonId, language);
      const course = found && (await visible(viewer, await courses.findById(found.courseId)));
      if (!found || !course) throw notFound('This lesson has no transcript in this language.');
      if (!mayWatchLesson(viewer, { courseTier: course.tier, freePreview: found.freePreview })) refuseFile(viewer, 'lesson video');
      const refusal = (await gateOf(viewer, course.id)).refusal({ ...found, id: lessonId });
      if (refusal) throw forbidden(refusal);
      return { language, cues: found.cues };
    },

    async searchTranscripts(viewer, courseId, words) {
      const course = await get(viewer, courseId);
      const rows = await courses.searchTranscripts({ courseId: course.id }, words, CAPTIONS.searchResults, MOMENTS_PER_LESSON);
      return transcriptMatches(viewer, rows, await gatesOf(viewer, rows));
    },

    async searchAllTranscripts(viewer, words) {
      const rows = await courses.searchTranscripts('published courses', words, CAPTIONS.searchResults, MOMENTS_PER_LESSON);
      return transcriptMatches(viewer, rows, await gatesOf(viewer, rows));
    },

    unmetPrerequisite: async (viewer, courseId) => (await gateOf(viewer, courseId)).unmet,
    lessonRefusal: async (viewer, lesson) => (await gateOf(viewer, lesson.courseId)).refusal(lesson),
  };
}
