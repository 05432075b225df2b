import type { Readable } from 'node:stream';
import { badRequest } from '../../common/errors.ts';
import { UploadFolder, type FilesService } from '../../common/files.contract.ts';
import { requireStaff } from '../../common/viewer.ts';
import type { DataAccess } from '../repositories.ts';
import { isSafeStorageKey, type FileStorage } from './storage.ts';
import { checkUpload, displayName, storageKeyFor } from './upload-checks.ts';

const LIBRARY_ROWS = 500;

/** Server-side extras beyond what pages call: reading a stored file back. */
export interface ServerFilesService extends FilesService {
  /** A file kept on local disk, with its recorded type and name; null when unknown or missing. */
  openLocal(storageKey: string): Promise<{ contentType: string; filename: string; stream: Readable } | null>;
}

export function createFilesService(deps: { data: DataAccess; storage: FileStorage }): ServerFilesService {
  const { data, storage } = deps;
  return {
    storageName: storage.displayName,

    async list(viewer) {
      requireStaff(viewer);
      const rows = await data.files.latest(LIBRARY_ROWS);
      return rows.map((row) => ({ id: row.id, filename: row.filename, folder: row.folder, url: row.url }));
    },

    async upload(viewer, file) {
      const staff = requireStaff(viewer);
      const folder = UploadFolder.safeParse(file.folder);
      if (!folder.success) throw badRequest(folder.error.issues[0]?.message ?? 'Choose a folder.', 'folder');
      const name = displayName(file.filename);
      const content = Buffer.from(file.content);
      const { type, extension } = await checkUpload(name, content);
      const key = storageKeyFor(folder.data, extension);
      await storage.put(key, content, type.contentType, type.inline ? {} : { attachment: name });
      const url = storage.urlFor(key);
      const stored = await data.transaction(async (tx) => {
        const row = await tx.files.create({
          filename: name,
          folder: folder.data,
          storageKey: key,
          contentType: type.contentType,
          sizeBytes: content.length,
          url,
          uploadedBy: staff.email,
        });
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'file.upload',
          target: `${folder.data}/${name}`,
          oldValue: null,
          newValue: { url, size: content.length },
        });
        return row;
      });
      return { success: true as const, id: stored.id, filename: name, folder: folder.data, url };
    },

    async openLocal(storageKey) {
      if (!isSafeStorageKey(storageKey) || !storage.open) return null;
      const file = await data.files.findByStorageKey(storageKey);
      const stream = file ? await storage.open(storageKey) : null;
      return file && stream ? { contentType: file.contentType, filename: file.filename, stream } : null;
    },
  };
}
