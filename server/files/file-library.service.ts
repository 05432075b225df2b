import { z } from 'zod';
import { badRequest, conflict, notFound } from '../../common/errors.ts';
import { PAGE_SIZE, SHOWN } from '../../common/limits.ts';
import { accessTierOf, defaultVisibility, FileVisibility, UploadFolder, type FilesService } from '../../common/files.contract.ts';
import { isPublicFile, requireStaffArea } from '../../common/policies.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { DataAccess } from '../repositories.ts';
import type { FileStorage } from './storage.ts';
import { checkUpload, displayName, storageKeyFor } from './upload-checks.ts';
import { makeImageVariants } from './image-variants.ts';
import { ALLOWED_EXTENSIONS } from './upload-types.ts';

const FileCursor = z.tuple([TimestampKey, z.uuid()]);

type FileRow = NonNullable<Awaited<ReturnType<DataAccess['files']['findById']>>>;

// Staff's file library: uploads, their visibility and names, and the pickers' choices. Who may open
// a file is file-delivery.service.ts.

export function createFileLibraryService(deps: { data: DataAccess; storage: FileStorage; uploadMaxBytes: number }): FilesService {
  const { data, storage } = deps;
  // A public file on local disk has its own address; every other file goes through /api/files/:id.
  const urlOf = (row: FileRow) =>
    isPublicFile(row) && storage.publicUrlFor ? storage.publicUrlFor(row.storageKey) : `/api/files/${row.id}`;
  const shape = (row: FileRow) => ({
    id: row.id,
    filename: row.filename,
    folder: row.folder,
    url: urlOf(row),
    visibility: row.accessTier ?? ('public' as const),
    content_type: row.contentType,
  });

  return {
    storageName: storage.displayName,
    uploadRules: { extensions: ALLOWED_EXTENSIONS, maxBytes: deps.uploadMaxBytes },

    async list(viewer, query = {}) {
      requireStaffArea(viewer, 'content');
      const before = query.before ? decodeCursor(query.before, FileCursor) : undefined;
      const rows = await data.files.latest(
        PAGE_SIZE.staffList + 1,
        before && { createdAt: before[0], id: before[1] },
        query.search || undefined,
      );
      return pageOf(rows, PAGE_SIZE.staffList, (row) => [row.createdKey, row.id], shape);
    },

    async choices(viewer) {
      requireStaffArea(viewer, 'content');
      const kinds = await Promise.all(
        (['images', 'videos', 'attachments'] as const).map((kind) => data.files.latestOfKind(kind, SHOWN.pickerFiles)),
      );
      const seen = new Set<string>();
      return kinds
        .flat()
        .filter((row) => !seen.has(row.id) && seen.add(row.id))
        .map(shape);
    },

    async upload(viewer, file) {
      const staff = requireStaffArea(viewer, 'content');
      const folder = UploadFolder.safeParse(file.folder);
      if (!folder.success) throw badRequest(folder.error.issues[0]?.message ?? 'Choose a folder.', 'folder');
      const visibility = FileVisibility.safeParse(
        file.visibility === undefined || file.visibility === '' ? defaultVisibility(folder.data) : file.visibility,
      );
      if (!visibility.success) throw badRequest(visibility.error.issues[0]?.message ?? 'Choose who may open the file.', 'visibility');
      const name = displayName(file.filename);
      const content = Buffer.from(file.content);
      const { type, extension } = await checkUpload(name, content);
      const key = storageKeyFor(folder.data, extension);
      const written: string[] = [];
      try {
        await storage.put(key, content, type.contentType, type.inline ? {} : { attachment: name });
        written.push(key);
        // Images get smaller WebP copies, so pages send a phone the size it shows.
        const variants = type.contentType.startsWith('image/') ? await makeImageVariants(content, key) : [];
        for (const variant of variants) {
          await storage.put(variant.key, variant.body, 'image/webp');
          written.push(variant.key);
        }
        const stored = await data.transaction(async (tx) => {
          const { id } = await tx.files.create({
            filename: name,
            folder: folder.data,
            storageKey: key,
            contentType: type.contentType,
            sizeBytes: content.length,
            accessTier: accessTierOf(visibility.data),
            uploadedBy: staff.email,
            variants: variants.map(({ width, key: variantKey }) => ({ width, key: variantKey })),
          });
          const row = (await tx.files.findById(id))!;
          await tx.audit.record({
            actorEmail: staff.email,
            action: 'file.upload',
            target: `${folder.data}/${name}`,
            oldValue: null,
            newValue: { url: urlOf(row), size: content.length, visibility: visibility.data },
          });
          return row;
        });
        return { success: true as const, ...shape(stored) };
      } catch (error) {
        // A full disk, a refusing bucket or a failed save leaves no file behind without its row.
        await Promise.all(written.map((each) => storage.delete(each).catch(() => {})));
        throw error;
      }
    },

    async setVisibility(viewer, fileId, visibility) {
      const staff = requireStaffArea(viewer, 'content');
      return data.transaction(async (tx) => {
        const before = await tx.files.findById(fileId);
        if (!before) throw notFound('File not found.');
        await tx.files.setAccessTier(fileId, accessTierOf(visibility));
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'file.visibility',
          target: `${before.folder}/${before.filename}`,
          oldValue: before.accessTier ?? 'public',
          newValue: visibility,
        });
        return shape((await tx.files.findById(fileId))!);
      });
    },

    async rename(viewer, fileId, filename) {
      const staff = requireStaffArea(viewer, 'content');
      const before = await data.files.findById(fileId);
      if (!before) throw notFound('File not found.');
      const name = displayName(filename);
      // The ending names the file's type, checked at upload: it stays.
      const ending = (file: string) => file.slice(file.lastIndexOf('.') + 1).toLowerCase();
      if (ending(name) !== ending(before.filename) || !name.includes('.')) {
        throw badRequest(`Keep the .${ending(before.filename)} ending: it says what kind of file this is.`, 'filename');
      }
      return data.transaction(async (tx) => {
        await tx.files.rename(fileId, name);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'file.rename',
          target: `${before.folder}/${before.filename}`,
          oldValue: before.filename,
          newValue: name,
        });
        return shape((await tx.files.findById(fileId))!);
      });
    },

    async remove(viewer, fileId) {
      const staff = requireStaffArea(viewer, 'content');
      const removed = await data.transaction(async (tx) => {
        const before = await tx.files.findById(fileId);
        if (!before) throw notFound('File not found.');
        const uses = await tx.files.usesOf(fileId);
        if (uses.length > 0) throw conflict(`This file is in use as ${uses.join(', ')}. Choose another file there first.`);
        await tx.files.remove(fileId);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'file.delete',
          target: `${before.folder}/${before.filename}`,
          oldValue: before.storageKey,
          newValue: null,
        });
        return before;
      });
      // After the row is gone, so a failure here leaves an orphan in the store, never a row without its file.
      for (const key of [removed.storageKey, ...removed.variants.map((variant) => variant.key)]) await storage.delete(key).catch(() => {});
    },
  };
}
