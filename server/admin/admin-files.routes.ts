import multipart from '@fastify/multipart';
import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_UPLOAD_FOLDER, isUploadFolder } from '../../common/admin.ts';
import { uploadedFiles } from '../../db/schema.ts';
import { checkUpload, displayName, storageKeyFor } from '../files/upload.service.ts';
import { badRequest, HttpError } from '../http/errors.ts';
import { requireStaff } from '../sessions/session.plugin.ts';
import { recordAudit } from './audit.ts';

export async function adminFilesRoutes(app: FastifyInstance) {
  const maxBytes = app.config.uploadMaxBytes;
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 1000 } });

  app.get('/api/admin/files', async () => {
    const rows = await app.database.select().from(uploadedFiles).orderBy(desc(uploadedFiles.createdAt)).limit(500);
    return rows.map((row) => ({ id: row.id, filename: row.filename, folder: row.folder, url: row.url }));
  });

  // SPEC 7: multipart with file and folder; answers the file's url.
  app.post('/api/admin/upload', async (request, reply) => {
    const staff = await requireStaff(request);
    if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data with the fields file and folder.');
    let folderValue: unknown = DEFAULT_UPLOAD_FOLDER;
    let file: { filename: string; content: Buffer } | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || file) {
            await part.toBuffer();
            continue;
          }
          file = { filename: part.filename, content: await part.toBuffer() };
        } else if (part.fieldname === 'folder') {
          folderValue = part.value;
        }
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new HttpError(413, `The file is too large. The limit is ${Math.round(maxBytes / 1024 / 1024)} MB.`);
      }
      throw error;
    }
    if (!file) throw badRequest('Choose a file to upload.');
    if (!isUploadFolder(folderValue)) throw badRequest('Choose one of the folders: course-materials, ebooks, templates, images, videos.');
    const name = displayName(file.filename);
    const { type, extension } = await checkUpload(name, file.content);
    const key = storageKeyFor(folderValue, extension);
    await app.storage.put(key, file.content, type.contentType, type.inline ? {} : { attachment: name });
    const url = app.storage.urlFor(key);
    const [stored] = await app.database
      .insert(uploadedFiles)
      .values({
        filename: name,
        folder: folderValue,
        storageKey: key,
        contentType: type.contentType,
        sizeBytes: file.content.length,
        url,
        uploadedBy: staff.email,
      })
      .returning({ id: uploadedFiles.id });
    await recordAudit(app.database, {
      actorEmail: staff.email,
      action: 'file.upload',
      target: `${folderValue}/${name}`,
      oldValue: null,
      newValue: { url, size: file.content.length },
    });
    return reply.status(201).send({ success: true, id: stored.id, filename: name, folder: folderValue, url });
  });
}
