import { COURSE_NOT_FOUND, type CoursesService } from '../../common/courses.contract.ts';
import { notFound } from '../../common/errors.ts';
import { isEntitled } from '../../common/tiers.ts';
import type { CoursesRepository } from './courses.repository.ts';

export function createCoursesService(repository: CoursesRepository): CoursesService {
  async function get(courseId: string) {
    const course = await repository.findById(courseId);
    if (!course) throw notFound(COURSE_NOT_FOUND);
    return course;
  }

  return {
    list: () => repository.list(),
    find: (courseId) => repository.findById(courseId),
    get,

    // A lesson's video is sent only to a signed-in member whose tier reaches the course's tier.
    async lessons(viewer, courseId) {
      const course = await get(courseId);
      const entitled = isEntitled(viewer.member?.membershipTier, course.tier);
      const rows = await repository.listLessons(course.id);
      return rows.map((lesson) => ({
        id: lesson.id,
        title: lesson.title,
        duration: lesson.duration,
        description: lesson.description,
        // A stored video goes through its own tier check; an external one is linked as it is.
        video_url: entitled ? (lesson.videoFileId ? `/api/lessons/${lesson.id}/video` : lesson.videoUrl || null) : null,
        has_video: lesson.videoFileId !== null || Boolean(lesson.videoUrl),
      }));
    },
  };
}
