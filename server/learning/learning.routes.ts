import type { FastifyInstance } from 'fastify';
import { notFound, forbidden } from '../http/errors.ts';
import { requireMember } from '../sessions/session.plugin.ts';
import { renderCertificatePdf } from './certificate-pdf.ts';
import { createLearningService } from './learning.service.ts';

type CourseParams = { Params: { id: string } };
type CodeParams = { Params: { code: string } };

export async function learningRoutes(app: FastifyInstance) {
  const learning = createLearningService(app.database);

  app.post<CourseParams>('/api/courses/:id/enrol', async (request) => learning.enrol(await requireMember(request), request.params.id));

  app.get<CourseParams>('/api/courses/:id/progress', async (request) =>
    learning.courseProgress(await requireMember(request), request.params.id),
  );

  app.post<CourseParams>('/api/lessons/:id/complete', async (request) =>
    learning.completeLesson(await requireMember(request), request.params.id),
  );

  app.get('/api/me/enrolments', async (request) => learning.enrolments((await requireMember(request)).id));

  app.get('/api/me/certificates', async (request) => learning.certificates((await requireMember(request)).id));

  // Public verification of a certificate by its code: who, which course, when.
  app.get<CodeParams>('/api/certificates/:code', async (request) => {
    const certificate = await learning.certificateByCode(request.params.code.toUpperCase());
    if (!certificate) throw notFound('Certificate not found');
    return {
      code: certificate.code,
      member_name: certificate.memberName,
      course_id: certificate.courseId,
      course_title: certificate.courseTitle,
      issued_at: certificate.issuedAt.toISOString(),
    };
  });

  // The PDF is for its owner only.
  app.get<CodeParams>('/api/certificates/:code/pdf', async (request, reply) => {
    const member = await requireMember(request);
    const certificate = await learning.certificateByCode(request.params.code.toUpperCase());
    if (!certificate) throw notFound('Certificate not found');
    if (certificate.memberId !== member.id) throw forbidden('This certificate belongs to another member.');
    const origin = `${request.protocol}://${request.host}`;
    const pdf = await renderCertificatePdf({ ...certificate, verifyUrl: `${origin}/certificates/${certificate.code}` });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="certificate-${certificate.code}.pdf"`)
      .send(Buffer.from(pdf));
  });
}
