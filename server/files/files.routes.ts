import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { CaptionsParams, CourseParams, LessonParams, RecordingCaptionsParams } from '../../common/courses.contract.ts';
import { badRequest, notFound, ServiceError } from '../../common/errors.ts';
import {
  DEFAULT_UPLOAD_FOLDER,
  FileParams,
  FileQuery,
  FileRenameInput,
  FileVisibilityInput,
  UploadedFileList,
  UploadResponse,
} from '../../common/files.contract.ts';
import { SuccessResponse } from '../../common/fields.ts';
import { SearchQuery } from '../../common/paging.ts';
import { arrayPage } from '../http/paging.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';
import { sendStoredFile, type StoredFile } from './send-file.ts';
import { LOCAL_FILES_PREFIX } from './storage.ts';

const LocalFileParams = z.object({ folder: z.string().max(100), name: z.string().max(200) });
const ResourceParams = z.object({ id: CourseParams.shape.id.describe('Resource id') });

export async function filesRoutes(app: ZodApp) {
  const { files, fileDelivery } = app.services;
  const maxBytes = app.config.uploadMaxBytes;
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 1000 } });
  const staff = { access: 'staff' } as const;

  // SPEC 7: an array; the newest page of the library, the next named in `Link`.
  app.get(
    '/api/admin/files',
    { config: staff, schema: { querystring: SearchQuery, response: withErrors({ 200: UploadedFileList }) } },
    async (request, reply) => arrayPage(request, reply, await files.list(await request.viewer(), request.query)),
  );

  // SPEC 7: multipart with file and folder (and, beyond the spec, who may open it); answers the file's url.
  app.post('/api/admin/upload', { config: staff, schema: { response: withErrors({ 201: UploadResponse }) } }, async (request, reply) => {
    if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data with the fields file and folder.');
    const fields: Record<string, unknown> = { folder: DEFAULT_UPLOAD_FOLDER };
    let file: { filename: string; content: Buffer } | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const content = await part.toBuffer();
          if (part.fieldname === 'file' && !file) file = { filename: part.filename, content };
        } else if (part.fieldname === 'folder' || part.fieldname === 'visibility') {
          fields[part.fieldname] = part.value;
        }
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new ServiceError(413, `The file is too large. The limit is ${Math.round(maxBytes / 1024 / 1024)} MB.`);
      }
      throw error;
    }
    if (!file) throw badRequest('Choose a file to upload.');
    return reply
      .status(201)
      .send(await files.upload(await request.viewer(), { ...file, folder: fields.folder, visibility: fields.visibility }));
  });

  app.post(
    '/api/admin/files/:id/visibility',
    {
      config: staff,
      schema: { params: FileParams, body: FileVisibilityInput, response: withErrors({ 200: UploadResponse.omit({ success: true }) }) },
    },
    async (request) => files.setVisibility(await request.viewer(), request.params.id, request.body.visibility),
  );

  app.patch(
    '/api/admin/files/:id',
    {
      config: staff,
      schema: { params: FileParams, body: FileRenameInput, response: withErrors({ 200: UploadResponse.omit({ success: true }) }) },
    },
    async (request) => files.rename(await request.viewer(), request.params.id, request.body.filename),
  );

  app.delete(
    '/api/admin/files/:id',
    { config: staff, schema: { params: FileParams, response: withErrors({ 200: SuccessResponse }) } },
    async (request) => {
      await files.remove(await request.viewer(), request.params.id);
      return { success: true as const };
    },
  );

  // Files, not JSON: only the input is declared. Each goes through its access check first.
  // ?w=640: an image as its WebP copy at least that wide (pages ask for it in srcset).
  app.get('/api/files/:id', { schema: { params: FileParams, querystring: FileQuery } }, async (request, reply) => {
    const { file, membersOnly, publicImage } = await fileDelivery.fileById(await request.viewer(), request.params.id, request.query.w);
    return sendStoredFile(request, reply, app.storage, file, { membersOnly, publicImage });
  });

  app.get('/api/lessons/:id/video', { schema: { params: LessonParams } }, async (request, reply) => {
    const { file, membersOnly } = await fileDelivery.lessonVideo(await request.viewer(), request.params.id);
    return sendStoredFile(request, reply, app.storage, file, { membersOnly });
  });

  // A lesson's captions, for its video's <track>: sent from here whatever the storage (a <track> reads
  // only its own site's files), as they were uploaded, to whom the video opens.
  const sendCaptions = async (reply: FastifyReply, file: StoredFile) => {
    const stream = await app.storage.get(file.storageKey);
    if (!stream) throw notFound('File not found.');
    return reply
      .header('content-type', 'text/vtt; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(stream);
  };
  app.get('/api/lessons/:id/captions/:language', { schema: { params: CaptionsParams } }, async (request, reply) => {
    const { file } = await fileDelivery.lessonCaptions(await request.viewer(), request.params.id, request.params.language);
    return sendCaptions(reply, file);
  });
  // A coaching session's recording's captions, the same way, to whom the recording opens.
  app.get('/api/coaching/recordings/:id/captions/:language', { schema: { params: RecordingCaptionsParams } }, async (request, reply) => {
    const { file } = await fileDelivery.recordingCaptions(await request.viewer(), request.params.id, request.params.language);
    return sendCaptions(reply, file);
  });

  app.get('/api/resources/:id/download', { schema: { params: ResourceParams } }, async (request, reply) => {
    const { file, membersOnly } = await fileDelivery.resourceDownload(await request.viewer(), request.params.id);
    return sendStoredFile(request, reply, app.storage, file, { membersOnly });
  });

  // Public files kept on local disk; a members-only file is not found here, whatever its name.
  app.get(`${LOCAL_FILES_PREFIX}:folder/:name`, { schema: { params: LocalFileParams } }, async (request, reply) => {
    const found = await fileDelivery.publicFile(`${request.params.folder}/${request.params.name}`);
    if (!found) throw notFound('File not found.');
    return sendStoredFile(request, reply, app.storage, found.file, { membersOnly: false });
  });
}
