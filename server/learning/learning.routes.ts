import { CourseParams, LessonParams } from '../../common/courses.contract.ts';
import {
  CertificateParams,
  CertificateVerification,
  CourseProgress,
  EnrolledCourseList,
  LessonPositionInput,
  MemberCertificateList,
} from '../../common/learning.contract.ts';
import { BeforeQuery } from '../../common/paging.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

export async function learningRoutes(app: ZodApp) {
  const { learning } = app.services;
  const member = { access: 'member' } as const;

  app.post(
    '/api/courses/:id/enrol',
    { config: member, schema: { params: CourseParams, response: withErrors({ 200: CourseProgress }) } },
    async (request) => learning.enrol(await request.viewer(), request.params.id),
  );

  app.get(
    '/api/courses/:id/progress',
    { config: member, schema: { params: CourseParams, response: withErrors({ 200: CourseProgress }) } },
    async (request) => learning.courseProgress(await request.viewer(), request.params.id),
  );

  app.post(
    '/api/lessons/:id/complete',
    { config: member, schema: { params: LessonParams, response: withErrors({ 200: CourseProgress }) } },
    async (request) => learning.completeLesson(await request.viewer(), request.params.id),
  );

  // The lesson player reports where the member is, every few seconds while playing and when paused or closed.
  app.put(
    '/api/lessons/:id/position',
    { config: member, schema: { params: LessonParams, body: LessonPositionInput, response: withErrors({ 200: CourseProgress }) } },
    async (request) => learning.saveLessonPosition(await request.viewer(), request.params.id, request.body),
  );

  // The member's own lists, a page at a time; `Link` names the next page.
  app.get(
    '/api/me/enrolments',
    { config: member, schema: { querystring: BeforeQuery, response: withErrors({ 200: EnrolledCourseList }) } },
    async (request, reply) => arrayPage(request, reply, await learning.enrolments(await request.viewer(), request.query)),
  );

  app.get(
    '/api/me/certificates',
    { config: member, schema: { querystring: BeforeQuery, response: withErrors({ 200: MemberCertificateList }) } },
    async (request, reply) => arrayPage(request, reply, await learning.certificates(await request.viewer(), request.query)),
  );

  // Public verification of a certificate by its code.
  app.get(
    '/api/certificates/:code',
    { schema: { params: CertificateParams, response: withErrors({ 200: CertificateVerification }) } },
    (request) => learning.verifyCertificate(request.params.code),
  );

  // A PDF, not JSON: only its input is declared.
  app.get('/api/certificates/:code/pdf', { config: member, schema: { params: CertificateParams } }, async (request, reply) => {
    const { code, pdf } = await learning.certificatePdf(await request.viewer(), request.params.code);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="certificate-${code}.pdf"`)
      .send(Buffer.from(pdf));
  });
}
