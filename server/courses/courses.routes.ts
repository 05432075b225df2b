import { CourseList, CourseParams, Course, LessonList } from '../../common/courses.contract.ts';
import { VISITORS_ALIKE as visitors } from '../cache/visitor-cache.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function coursesRoutes(app: ZodApp) {
  const { courses } = app.services;

  app.get('/api/courses', { config: visitors, schema: { response: withErrors({ 200: CourseList }) } }, () => courses.list());

  app.get('/api/courses/:id', { config: visitors, schema: { params: CourseParams, response: withErrors({ 200: Course }) } }, (request) =>
    courses.get(request.params.id),
  );

  app.get(
    '/api/courses/:id/lessons',
    { config: visitors, schema: { params: CourseParams, response: withErrors({ 200: LessonList }) } },
    async (request) => courses.lessons(await request.viewer(), request.params.id),
  );
}
