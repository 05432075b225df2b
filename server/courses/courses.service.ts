import { COURSE_NOT_FOUND, type Course, type CoursesService } from '../../common/courses.contract.ts';
import { notFound } from '../../common/errors.ts';
import { mayOpenAttachment, mayOpenCourse, mayOpenServedFile, mayWatchLesson } from '../../common/policies.ts';
import type { Viewer } from '../../common/viewer.ts';
import type { DataAccess } from '../repositories.ts';
import type { CourseRow } from './courses.repository.ts';

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
});

export function createCoursesService(data: DataAccess): CoursesService {
  const { courses } = data;

  /** Published courses for all; an archived one for the members enrolled in it; drafts for staff. */
  async function visible(viewer: Viewer, row: CourseRow | null): Promise<CourseRow | null> {
    if (!row) return null;
    const member = viewer.member;
    return (await mayOpenCourse(viewer, row, async () => member !== null && data.learning.isEnrolled(member.id, row.id))) ? row : null;
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
    async lessons(viewer, courseId) {
      const course = await get(viewer, courseId);
      const [rows, attachments] = await Promise.all([courses.listLessons(course.id), courses.listAttachments(course.id)]);
      return rows.map((lesson) => {
        const place = { courseTier: course.tier, freePreview: lesson.freePreview };
        // A stored video also keeps its file's own visibility, as its route does: no link that answers 403.
        const opens = lesson.videoFileId
          ? mayOpenServedFile(viewer, { accessTier: lesson.videoFileAccessTier }, [{ as: 'lesson video', courseId: course.id, ...place }])
          : mayWatchLesson(viewer, place);
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
              url: mayOpenAttachment(viewer, course, file) ? `/api/files/${file.fileId}` : null,
            })),
        };
      });
    },
  };
}
