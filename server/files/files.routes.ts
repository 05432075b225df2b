import multipart from '@fastify/multipart';
import { z } from 'zod';
import { badRequest, notFound, ServiceError } from '../../common/errors.ts';
import { DEFAULT_UPLOAD_FOLDER, UploadedFileList, UploadResponse } from '../../common/files.contract.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';
import { LOCAL_FILES_PREFIX } from './storage.ts';
import { INLINE_CONTENT_TYPES } from './upload-types.ts';

const LocalFileParams = z.object({ folder: z.string().max(100), name: z.string().max(200) });

export async function filesRoutes(app: ZodApp) {
  const { files } = app.services;
  const maxBytes = app.config.uploadMaxBytes;
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 1000 } });
  const staff = { access: 'staff' } as const;

  app.get('/api/admin/files', { config: staff, schema: { response: withErrors({ 200: UploadedFileList }) } }, async (request) =>
    files.list(await request.viewer()),
  );

  // SPEC 7: multipart with file and folder; answers the file's url.
  app.post('/api/admin/upload', { config: staff, schema: { response: withErrors({ 201: UploadResponse }) } }, async (request, reply) => {
    if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data with the fields file and folder.');
    let folder: unknown = DEFAULT_UPLOAD_FOLDER;
    let file: { filename: string; content: Buffer } | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const content = await part.toBuffer();
          if (part.fieldname === 'file' && !file) file = { filename: part.filename, content };
        } else if (part.fieldname === 'folder') {
          folder = part.value;
        }
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new ServiceError(413, `The file is too large. The limit is ${Math.round(maxBytes / 1024 / 1024)} MB.`);
      }
      throw error;
    }
    if (!file) throw badRequest('Choose a file to upload.');
    return reply.status(201).send(await files.upload(await request.viewer(), { ...file, folder }));
  });

  // Files kept on local disk, with their recorded type, `nosniff`, and no inline scripting (not JSON: only the input is declared).
  app.get(`${LOCAL_FILES_PREFIX}:folder/:name`, { schema: { params: LocalFileParams } }, async (request, reply) => {
    const file = await files.openLocal(`${request.params.folder}/${request.params.name}`);
    if (!file) throw notFound('File not found.');
    const disposition = INLINE_CONTENT_TYPES.has(file.contentType) ? 'inline' : 'attachment';
    const asciiName = file.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    return reply
      .header('content-type', file.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox")
      .header('content-disposition', `${disposition}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .header('cache-control', 'public, max-age=3600')
      .send(file.stream);
  });
}
