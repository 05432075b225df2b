import { CAPTION_LANGUAGES } from '../../common/course-kinds.ts';
import { COURSE_NOT_FOUND, type Course, type CoursesService, type TranscriptMatches } from '../../common/courses.contract.ts';
import { CAPTIONS } from '../../common/limits.ts';
import { forbidden, notFound } from '../../common/errors.ts';
import {
  mayOpenAttachment,
  mayOpenCourse,
  mayOpenServedFile,
  mayWatchLesson,
  meetsPrerequisite,
  prerequisiteFirst,
  refuseFile,
} from '../../common/policies.ts';
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

/** The moments of one lesson a transcript search shows at most. */
const MOMENTS_PER_LESSON = 5;

/**
 * Found lessons as the viewer may see them, a lesson once whatever the languages that matched: the
 * moments where the viewer may watch it; a lesson above their plan named as locked, never quoted.
 */
function transcriptMatches(viewer: Viewer, rows: TranscriptSearchRow[], prerequisiteUnmet: Set<string>): TranscriptMatches {
  const byLesson = new Map<string, TranscriptMatches[number]>();
  for (const row of rows) {
    const opens =
      mayWatchLesson(viewer, { courseTier: row.courseTier, freePreview: row.freePreview }) &&
      (row.freePreview || !prerequisiteUnmet.has(row.courseId));
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

  /** The course this one builds on while the viewer has not met it; null once they may study it (or it builds on none). */
  async function unmetPrerequisite(viewer: Viewer, courseId: string) {
    const standing = await courses.prerequisiteStanding(viewer.member?.id ?? null, courseId);
    return meetsPrerequisite(viewer, standing) ? null : { id: standing!.id, title: standing!.title };
  }

  /** Of the courses of these rows, those whose prerequisite the member has not met (a page's worth: a read each). */
  async function coursesBlocked(viewer: Viewer, rows: { courseId: string }[]): Promise<Set<string>> {
    const courseIds = [...new Set(rows.map((row) => row.courseId))];
    const unmet = await Promise.all(courseIds.map(async (id) => ((await unmetPrerequisite(viewer, id)) ? id : null)));
    return new Set(unmet.filter((id) => id !== null));
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
      const [rows, attachments, captions, prerequisite] = await Promise.all([
        courses.listLessons(course.id),
        courses.listAttachments(course.id),
        courses.listCaptions(course.id),
        unmetPrerequisite(viewer, course.id),
      ]);
      return rows.map((lesson) => {
        const place = { courseTier: course.tier, freePreview: lesson.freePreview };
        const watches = mayWatchLesson(viewer, place) && (lesson.freePreview || prerequisite === null);
        // A stored video also keeps its file's own visibility, as its route does: no link that answers 403.
        const opens =
          watches &&
          (!lesson.videoFileId ||
            mayOpenServedFile(viewer, { accessTier: lesson.videoFileAccessTier }, [{ as: 'lesson video', courseId: course.id, ...place }]));
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
              url: mayOpenAttachment(viewer, course, file) && prerequisite === null ? `/api/files/${file.fileId}` : null,
            })),
          // Captions open where the video opens (its place's rule, as on their route).
          captions: captions
            .filter((each) => each.lessonId === lesson.id)
            .map((each) => ({
              language: each.language,
              label: CAPTION_LANGUAGES[each.language],
              url: watches ? `/api/lessons/${lesson.id}/captions/${each.language}` : null,
            })),
        };
      });
    },

    async transcript(viewer, lessonId, language) {
      const found = await courses.transcriptOf(lessonId, language);
      const course = found && (await visible(viewer, await courses.findById(found.courseId)));
      if (!found || !course) throw notFound('This lesson has no transcript in this language.');
      if (!mayWatchLesson(viewer, { courseTier: course.tier, freePreview: found.freePreview })) refuseFile(viewer, 'lesson video');
      const prerequisite = found.freePreview ? null : await unmetPrerequisite(viewer, course.id);
      if (prerequisite) throw forbidden(prerequisiteFirst(prerequisite.title));
      return { language, cues: found.cues };
    },

    async searchTranscripts(viewer, courseId, words) {
      const course = await get(viewer, courseId);
      const rows = await courses.searchTranscripts({ courseId: course.id }, words, CAPTIONS.searchResults, MOMENTS_PER_LESSON);
      return transcriptMatches(viewer, rows, await coursesBlocked(viewer, rows));
    },

    async searchAllTranscripts(viewer, words) {
      const rows = await courses.searchTranscripts('published courses', words, CAPTIONS.searchResults, MOMENTS_PER_LESSON);
      return transcriptMatches(viewer, rows, await coursesBlocked(viewer, rows));
    },

    unmetPrerequisite,
  };
}
