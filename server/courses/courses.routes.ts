import type { FastifyInstance } from 'fastify';
import type { Lesson } from '../../common/catalogue.ts';
import { isEntitled } from '../../common/tiers.ts';
import { notFound } from '../http/errors.ts';
import { optionalMember } from '../sessions/session.plugin.ts';
import { createCoursesRepository } from './courses.repository.ts';

const COURSE_NOT_FOUND = 'Course not found';

export async function coursesRoutes(app: FastifyInstance) {
  const repository = createCoursesRepository(app.database);

  app.get('/api/courses', async () => repository.list());

  app.get<{ Params: { id: string } }>('/api/courses/:id', async (request) => {
    const course = await repository.findById(request.params.id);
    if (!course) throw notFound(COURSE_NOT_FOUND);
    return course;
  });

  // A lesson's video is sent only to a signed-in member whose tier reaches the course's tier.
  app.get<{ Params: { id: string } }>('/api/courses/:id/lessons', async (request): Promise<Lesson[]> => {
    const course = await repository.findById(request.params.id);
    if (!course) throw notFound(COURSE_NOT_FOUND);
    const member = await optionalMember(request);
    const entitled = isEntitled(member?.membershipTier, course.tier);
    const rows = await repository.listLessons(course.id);
    return rows.map((lesson) => ({
      id: lesson.id,
      title: lesson.title,
      duration: lesson.duration,
      description: lesson.description,
      video_url: entitled ? lesson.videoUrl : null,
      has_video: lesson.videoUrl !== null && lesson.videoUrl !== '',
    }));
  });
}
