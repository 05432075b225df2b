import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { uploadedFiles } from '../../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { isSafeStorageKey, LOCAL_FILES_PREFIX } from './storage.ts';
import { INLINE_CONTENT_TYPES } from './upload-types.ts';

/** Serves files kept on local disk, with their recorded type, `nosniff`, and no inline scripting. */
export async function localFilesRoutes(app: FastifyInstance) {
  app.get<{ Params: { folder: string; name: string } }>(`${LOCAL_FILES_PREFIX}:folder/:name`, async (request, reply) => {
    const key = `${request.params.folder}/${request.params.name}`;
    const storage = app.storage;
    if (!isSafeStorageKey(key) || !storage.open) throw notFound('File not found.');
    const [file] = await app.database.select().from(uploadedFiles).where(eq(uploadedFiles.storageKey, key)).limit(1);
    const stream = file ? await storage.open(key) : null;
    if (!file || !stream) throw notFound('File not found.');
    const disposition = INLINE_CONTENT_TYPES.has(file.contentType) ? 'inline' : 'attachment';
    const asciiName = file.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    return reply
      .header('content-type', file.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox")
      .header('content-disposition', `${disposition}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .header('cache-control', 'public, max-age=3600')
      .send(stream);
  });
}
