import { notFound } from '../../common/errors.ts';
import type { CoursesService } from '../../common/courses.contract.ts';
import { isPublicFile, mayDownloadResource, mayOpenFile, mayWatchLesson, mayWatchRecording, refuseFile } from '../../common/policies.ts';
import type { Viewer } from '../../common/viewer.ts';
import type { DataAccess } from '../repositories.ts';
import type { StoredFile } from './send-file.ts';

// Who may open which file (common/policies.ts decides): a public file everyone, a members-only one
// the members whose tier reaches it, a lesson's video and a resource's download through their own checks.

/** A file cleared for this viewer, and whether it is for members only (never stored by a shared cache). */
interface FileDelivery {
  file: StoredFile;
  membersOnly: boolean;
}

export interface FileDeliveryService {
  /** A public file by its storage key (the local `/files/...` address); null for a members-only or unknown one. */
  publicFile(storageKey: string): Promise<FileDelivery | null>;
  /** An uploaded file by id, for whoever its visibility allows (staff: every file); an image at a width, if asked. */
  fileById(viewer: Viewer, fileId: string, width?: number): Promise<FileDelivery & { publicImage: boolean }>;
  /** A lesson's uploaded video, for members whose tier reaches the course's (and staff). */
  lessonVideo(viewer: Viewer, lessonId: string): Promise<FileDelivery>;
  /** A resource's uploaded file, for members whose tier reaches tier_required (and staff). */
  resourceDownload(viewer: Viewer, resourceId: string): Promise<FileDelivery>;
  /** A coaching session's uploaded recording, for members whose tier reaches the session's (and staff). */
  sessionRecording(viewer: Viewer, sessionId: string): Promise<FileDelivery>;
}

const delivery = (row: StoredFile, membersOnly: boolean): FileDelivery => ({
  file: { storageKey: row.storageKey, contentType: row.contentType, filename: row.filename },
  membersOnly,
});

export function createFileDeliveryService(deps: {
  data: DataAccess;
  /** Who may see a lesson's course (drafts, archived courses). */
  courses: CoursesService;
}): FileDeliveryService {
  const { data } = deps;
  return {
    async publicFile(storageKey) {
      const row = await data.files.findByStorageKey(storageKey);
      return row && isPublicFile(row) ? delivery(row, false) : null;
    },

    // With a width, an image comes as its smallest WebP copy at least that wide (or as uploaded).
    async fileById(viewer, fileId, width) {
      const row = await data.files.findById(fileId);
      if (!row) throw notFound('File not found.');
      if (!mayOpenFile(viewer, row)) refuseFile(viewer, 'file');
      const variant = width ? row.variants.filter((each) => each.width >= width).sort((a, b) => a.width - b.width)[0] : undefined;
      const file = variant
        ? { storageKey: variant.key, contentType: 'image/webp', filename: row.filename.replace(/\.[^.]+$/, '.webp') }
        : row;
      return { ...delivery(file, !isPublicFile(row)), publicImage: isPublicFile(row) && row.contentType.startsWith('image/') };
    },

    async lessonVideo(viewer, lessonId) {
      const found = await data.files.findLessonVideo(lessonId);
      // Only where the course itself may be seen (drafts by staff, archived ones by their members);
      // there, a free preview is open to everyone.
      if (!found || !(await deps.courses.find(viewer, found.courseId))) throw notFound('This lesson has no video.');
      if (!mayWatchLesson(viewer, found)) refuseFile(viewer, 'lesson video');
      return delivery(found.file, true);
    },

    async resourceDownload(viewer, resourceId) {
      const found = await data.files.findResourceFile(resourceId);
      if (!found) throw notFound('This resource has no download.');
      if (!mayDownloadResource(viewer, found)) refuseFile(viewer, 'download');
      return delivery(found.file, true);
    },

    async sessionRecording(viewer, sessionId) {
      const found = await data.coaching.recordingFile(sessionId);
      if (!found) throw notFound('This session has no uploaded recording.');
      if (!mayWatchRecording(viewer, found)) refuseFile(viewer, 'recording');
      return delivery(found.file, true);
    },
  };
}
