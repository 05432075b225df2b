import {
  CourseInput,
  CourseList,
  CourseParams,
  Course,
  CourseStatusInput,
  CourseUpdate,
  LessonInput,
  LessonList,
  LessonOrderInput,
  LessonParams,
  StaffCourseDetail,
  StaffCourseList,
  Transcript,
  TranscriptMatches,
  TranscriptQuery,
  TranscriptSearchQuery,
} from '../../common/courses.contract.ts';
import { SuccessResponse } from '../../common/fields.ts';
import { BeforeQuery } from '../../common/paging.ts';
import { VISITORS_ALIKE as visitors } from '../cache/visitor-cache.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';
import { sendArtwork } from '../files/artwork.ts';

export async function coursesRoutes(app: ZodApp) {
  const { courses, courseAuthoring } = app.services;
  const staff = { access: 'staff' } as const;

  app.get('/api/courses', { config: visitors, schema: { response: withErrors({ 200: CourseList }) } }, () => courses.list());

  app.get(
    '/api/courses/:id',
    { config: visitors, schema: { params: CourseParams, response: withErrors({ 200: Course }) } },
    async (request) => courses.get(await request.viewer(), request.params.id),
  );

  app.get(
    '/api/courses/:id/lessons',
    { config: visitors, schema: { params: CourseParams, response: withErrors({ 200: LessonList }) } },
    async (request) => courses.lessons(await request.viewer(), request.params.id),
  );

  // A lesson video's transcript (the words under the player), for whom the video opens.
  app.get(
    '/api/lessons/:id/transcript',
    { schema: { params: LessonParams, querystring: TranscriptQuery, response: withErrors({ 200: Transcript }) } },
    async (request) => courses.transcript(await request.viewer(), request.params.id, request.query.language),
  );

  // Where a course's videos say these words: a moment to open for each lesson the viewer may watch.
  app.get(
    '/api/courses/:id/transcript-search',
    { schema: { params: CourseParams, querystring: TranscriptSearchQuery, response: withErrors({ 200: TranscriptMatches }) } },
    async (request) => courses.searchTranscripts(await request.viewer(), request.params.id, request.query.q),
  );

  // Where any published course's videos say these words: the catalogue's and the Help Center's search.
  app.get(
    '/api/transcript-search',
    { schema: { querystring: TranscriptSearchQuery, response: withErrors({ 200: TranscriptMatches }) } },
    async (request) => courses.searchAllTranscripts(await request.viewer(), request.query.q),
  );

  // The cover of a course that has no uploaded image: drawn from its title and category.
  app.get('/api/courses/:id/artwork.svg', { config: visitors, schema: { params: CourseParams } }, async (request, reply) => {
    const viewer = await request.viewer();
    const course = await courses.get(viewer, request.params.id);
    const signedIn = viewer.member !== null || viewer.staff !== null;
    return sendArtwork(reply, {
      title: course.title,
      label: course.category,
      theme: course.category,
      key: course.id,
      shared: !signedIn,
    });
  });

  // Staff authoring.
  // A page of courses; the next is named in `Link` (the answer stays an array).
  app.get(
    '/api/admin/courses',
    { config: staff, schema: { querystring: BeforeQuery, response: withErrors({ 200: StaffCourseList }) } },
    async (request, reply) => arrayPage(request, reply, await courseAuthoring.list(await request.viewer(), request.query)),
  );
  app.post(
    '/api/admin/courses',
    { config: staff, schema: { body: CourseInput, response: withErrors({ 201: StaffCourseDetail }) } },
    async (request, reply) => reply.status(201).send(await courseAuthoring.create(await request.viewer(), request.body)),
  );
  app.get(
    '/api/admin/courses/:id',
    { config: staff, schema: { params: CourseParams, response: withErrors({ 200: StaffCourseDetail }) } },
    async (request) => courseAuthoring.get(await request.viewer(), request.params.id),
  );
  app.patch(
    '/api/admin/courses/:id',
    { config: staff, schema: { params: CourseParams, body: CourseUpdate, response: withErrors({ 200: StaffCourseDetail }) } },
    async (request) => courseAuthoring.update(await request.viewer(), request.params.id, request.body),
  );
  app.post(
    '/api/admin/courses/:id/status',
    { config: staff, schema: { params: CourseParams, body: CourseStatusInput, response: withErrors({ 200: StaffCourseDetail }) } },
    async (request) => courseAuthoring.setStatus(await request.viewer(), request.params.id, request.body.status),
  );
  app.delete(
    '/api/admin/courses/:id',
    { config: staff, schema: { params: CourseParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await courseAuthoring.remove(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );
  app.post(
    '/api/admin/courses/:id/lessons',
    { config: staff, schema: { params: CourseParams, body: LessonInput, response: withErrors({ 201: StaffCourseDetail }) } },
    async (request, reply) =>
      reply.status(201).send(await courseAuthoring.addLesson(await request.viewer(), request.params.id, request.body)),
  );
  app.put(
    '/api/admin/courses/:id/lesson-order',
    { config: staff, schema: { params: CourseParams, body: LessonOrderInput, response: withErrors({ 200: StaffCourseDetail }) } },
    async (request) => courseAuthoring.reorderLessons(await request.viewer(), request.params.id, request.body.lesson_ids),
  );
  app.put(
    '/api/admin/lessons/:id',
    { config: staff, schema: { params: LessonParams, body: LessonInput, response: withErrors({ 200: StaffCourseDetail }) } },
    async (request) => courseAuthoring.updateLesson(await request.viewer(), request.params.id, request.body),
  );
  app.delete(
    '/api/admin/lessons/:id',
    { config: staff, schema: { params: LessonParams, response: withErrors({ 200: StaffCourseDetail }) } },
    async (request) => courseAuthoring.removeLesson(await request.viewer(), request.params.id),
  );
}
