import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { badRequest, ServiceError } from '../../common/errors.ts';
import { SuccessResponse } from '../../common/fields.ts';
import {
  CeEntryPage,
  CeEntryParams,
  CeEntryView,
  CourseCeInput,
  CourseCeView,
  LicenceInput,
  LicenceList,
  LicenceParams,
  LicenceStanding,
  OutsideCeInput,
  RequirementInput,
  RequirementList,
  RequirementParams,
  RequirementView,
  STATE_CODES,
} from '../../common/licence.contract.ts';
import { LICENCES } from '../../common/limits.ts';
import { cursorParam, slugParam } from '../../common/fields.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

const EntriesQuery = z.object({ state: z.enum(STATE_CODES, { error: 'Choose a state' }), after: cursorParam().optional() });

/** An attachment's Content-Disposition, its name in ASCII and in full. */
const attachment = (filename: string) =>
  `attachment; filename="${filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;

export async function licenceRoutes(app: ZodApp) {
  const { licence } = app.services;
  const member = { access: 'member' } as const;
  const authors = { access: { area: 'content' } } as const;
  // Outside CE comes with its certificate: one file, a few short fields.
  await app.register(multipart, { limits: { fileSize: LICENCES.certificateMaxBytes, files: 1, fields: 10, fieldSize: 1000 } });

  app.get('/api/licence', { config: member, schema: { response: withErrors({ 200: LicenceList }) } }, async (request) =>
    licence.ledger(await request.viewer()),
  );

  app.post(
    '/api/licence/licences',
    { config: member, schema: { body: LicenceInput, response: withErrors({ 201: LicenceStanding }) } },
    async (request, reply) => reply.status(201).send(await licence.addLicence(await request.viewer(), request.body)),
  );

  app.put(
    '/api/licence/licences/:id',
    { config: member, schema: { params: LicenceParams, body: LicenceInput, response: withErrors({ 200: LicenceStanding }) } },
    async (request) => licence.updateLicence(await request.viewer(), request.params.id, request.body),
  );

  app.delete(
    '/api/licence/licences/:id',
    { config: member, schema: { params: LicenceParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await licence.removeLicence(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );

  app.get(
    '/api/licence/entries',
    { config: member, schema: { querystring: EntriesQuery, response: withErrors({ 200: CeEntryPage }) } },
    async (request) => licence.entries(await request.viewer(), request.query.state, request.query.after),
  );

  // Multipart: the fields of OutsideCeInput and the certificate file as `certificate`.
  app.post('/api/licence/entries', { config: member, schema: { response: withErrors({ 201: CeEntryView }) } }, async (request, reply) => {
    if (!request.isMultipart()) throw badRequest('Send the course as multipart/form-data, with its certificate as the field certificate.');
    const fields: Record<string, unknown> = {};
    let certificate: { filename: string; content: Buffer } | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const content = await part.toBuffer();
          if (part.fieldname === 'certificate' && !certificate) certificate = { filename: part.filename, content };
        } else {
          fields[part.fieldname] = part.value;
        }
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new ServiceError(413, `The certificate may be at most ${LICENCES.certificateMaxBytes / 1024 / 1024} MB.`);
      }
      throw error;
    }
    const input = OutsideCeInput.parse(fields);
    if (!certificate || certificate.content.length === 0)
      throw badRequest('Add the certificate you were given (a PDF or a photo).', 'certificate');
    return reply.status(201).send(await licence.addOutsideEntry(await request.viewer(), input, certificate));
  });

  app.delete(
    '/api/licence/entries/:id',
    { config: member, schema: { params: CeEntryParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await licence.removeOutsideEntry(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );

  // A file, not JSON: its member's or an owner's, never cached on the way, never sniffed into a page.
  app.get('/api/licence/entries/:id/certificate', { schema: { params: CeEntryParams } }, async (request, reply) => {
    const file = await licence.certificateFile(await request.viewer(), request.params.id);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', attachment(file.filename))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  });

  // 'Download for the commission': the cycle's transcript, and its certificates in one zip.
  app.get('/api/licence/licences/:id/transcript.pdf', { config: member, schema: { params: LicenceParams } }, async (request, reply) => {
    const { filename, pdf } = await licence.transcript(await request.viewer(), request.params.id);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', attachment(filename))
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(pdf));
  });

  app.get('/api/licence/licences/:id/certificates.zip', { config: member, schema: { params: LicenceParams } }, async (request, reply) => {
    const { filename, zip } = await licence.certificates(await request.viewer(), request.params.id);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', attachment(filename))
      .header('cache-control', 'private, no-store')
      .send(Readable.from(zip));
  });

  const CourseParams = z.object({ id: slugParam('Course') });
  app.get(
    '/api/admin/courses/:id/ce',
    { config: authors, schema: { params: CourseParams, response: withErrors({ 200: CourseCeView }) } },
    async (request) => licence.courseCe(await request.viewer(), request.params.id),
  );

  app.put(
    '/api/admin/courses/:id/ce',
    { config: authors, schema: { params: CourseParams, body: CourseCeInput, response: withErrors({ 200: CourseCeView }) } },
    async (request) => licence.saveCourseCe(await request.viewer(), request.params.id, request.body),
  );

  app.get('/api/admin/ce-requirements', { config: authors, schema: { response: withErrors({ 200: RequirementList }) } }, async (request) =>
    licence.requirements(await request.viewer()),
  );

  app.put(
    '/api/admin/ce-requirements/:state/:licence_type',
    { config: authors, schema: { params: RequirementParams, body: RequirementInput, response: withErrors({ 200: RequirementView }) } },
    async (request) => licence.saveRequirement(await request.viewer(), request.params, request.body),
  );

  app.delete(
    '/api/admin/ce-requirements/:state/:licence_type',
    { config: authors, schema: { params: RequirementParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await licence.removeRequirement(await request.viewer(), request.params);
      return { success: true as const };
    },
  );
}
