import { notFound } from '../../common/errors.ts';
import type { CoursesService } from '../../common/courses.contract.ts';
import { isOpenToAll, isPublicFile, mayOpenServedFile, mayWatchRecording, refuseFile, type FileUse } from '../../common/policies.ts';
import type { CaptionLanguage } from '../../common/course-kinds.ts';
import type { Viewer } from '../../common/viewer.ts';
import { requireLessonOpen } from '../courses/courses.service.ts';
import type { DataAccess } from '../repositories.ts';
import type { StoredFile } from './send-file.ts';

// Who may open which file (common/policies.ts decides): a file by its own visibility, and one that a
// lesson, a resource or a session serves also by their checks, on their routes and by its id alike
// (an id must not open what the place keeps). Such a file is never public: no address, no shared cache.

/** A file cleared for this viewer, and whether it is for members only (never stored by a shared cache). */
interface FileDelivery {
  file: StoredFile;
  membersOnly: boolean;
}

export interface FileDeliveryService {
  /** A public file by its storage key (the local `/files/...` address); null for a members-only, a paid place's or an unknown one. */
  publicFile(storageKey: string): Promise<FileDelivery | null>;
  /** An uploaded file by id, for whoever its visibility and every place using it allow (staff: every file); an image at a width, if asked. */
  fileById(viewer: Viewer, fileId: string, width?: number): Promise<FileDelivery & { publicImage: boolean }>;
  /** A lesson's uploaded video, for members whose tier reaches the course's and the file's (and staff). */
  lessonVideo(viewer: Viewer, lessonId: string): Promise<FileDelivery>;
  /** A lesson's captions in one language: where its video opens (a <track>, served as it was uploaded). */
  lessonCaptions(viewer: Viewer, lessonId: string, language: string): Promise<FileDelivery>;
  /** A recording's captions in one language: where the recording opens. */
  recordingCaptions(viewer: Viewer, sessionId: string, language: CaptionLanguage): Promise<FileDelivery>;
  /** A resource's uploaded file, for members whose tier reaches tier_required and the file's (and staff). */
  resourceDownload(viewer: Viewer, resourceId: string): Promise<FileDelivery>;
  /** A coaching session's uploaded recording, for members whose tier reaches the session's and the file's (and staff). */
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

  /** Whether the viewer may see the course of every lesson among these places (a draft's lessons are staff's). */
  async function seesEveryCourse(viewer: Viewer, places: readonly FileUse[]): Promise<boolean> {
    const courseIds = new Set(places.flatMap((place) => ('courseId' in place ? [place.courseId] : [])));
    for (const courseId of courseIds) if (!(await deps.courses.find(viewer, courseId))) return false;
    return true;
  }

  /**
   * A lesson's files wait, as the lesson does, until it is open to the viewer (the course it builds
   * on completed, its drip come): refused with why. A free preview's video is open to all.
   */
  async function refuseUnopenedLessons(viewer: Viewer, places: readonly FileUse[]): Promise<void> {
    for (const place of places) {
      if (place.as !== 'lesson video' && place.as !== 'lesson attachment') continue;
      await requireLessonOpen(deps.courses, viewer, {
        ...place,
        id: place.lessonId,
        freePreview: place.as === 'lesson video' && place.freePreview,
      });
    }
  }

  return {
    async publicFile(storageKey) {
      const row = await data.files.findByStorageKey(storageKey);
      // A members-only file needs no second read.
      if (!row || !isPublicFile(row)) return null;
      return isOpenToAll(row, await data.files.gatedUsesOf(row.id)) ? delivery(row, false) : null;
    },

    // With a width, an image comes as its smallest WebP copy at least that wide (or as uploaded).
    async fileById(viewer, fileId, width) {
      const [row, places] = await Promise.all([data.files.findById(fileId), data.files.gatedUsesOf(fileId)]);
      if (!row) throw notFound('File not found.');
      if (!mayOpenServedFile(viewer, row, places)) refuseFile(viewer, 'file');
      // As on the lesson's own route, a video in a course the viewer may not see is not there for them.
      if (!(await seesEveryCourse(viewer, places))) throw notFound('File not found.');
      await refuseUnopenedLessons(viewer, places);
      const variant = width ? row.variants.filter((each) => each.width >= width).sort((a, b) => a.width - b.width)[0] : undefined;
      const file = variant
        ? { storageKey: variant.key, contentType: 'image/webp', filename: row.filename.replace(/\.[^.]+$/, '.webp') }
        : row;
      const openToAll = isOpenToAll(row, places);
      return { ...delivery(file, !openToAll), publicImage: openToAll && row.contentType.startsWith('image/') };
    },

    async lessonVideo(viewer, lessonId) {
      const found = await data.files.findLessonVideo(lessonId);
      // Only where the course itself may be seen (drafts by staff, archived ones by their members);
      // there, a free preview is open to everyone.
      if (!found || !(await deps.courses.find(viewer, found.courseId))) throw notFound('This lesson has no video.');
      if (!mayOpenServedFile(viewer, found.file, [{ as: 'lesson video', ...found }])) refuseFile(viewer, 'lesson video');
      await refuseUnopenedLessons(viewer, [{ as: 'lesson video', ...found }]);
      return delivery(found.file, true);
    },

    async lessonCaptions(viewer, lessonId, language) {
      const found = await data.files.findLessonCaptions(lessonId, language);
      if (!found || !(await deps.courses.find(viewer, found.courseId))) throw notFound('This lesson has no captions in this language.');
      if (!mayOpenServedFile(viewer, found.file, [{ as: 'lesson video', ...found }])) refuseFile(viewer, 'lesson video');
      await refuseUnopenedLessons(viewer, [{ as: 'lesson video', ...found }]);
      return delivery(found.file, true);
    },

    async recordingCaptions(viewer, sessionId, language) {
      const found = await data.coaching.recordingCaptions(sessionId, language);
      if (!found) throw notFound('This recording has no captions in this language.');
      const recording = { minTier: found.minTier, file: found.recordingFileId ? { accessTier: found.recordingFileTier } : null };
      if (!mayWatchRecording(viewer, recording) || !mayOpenServedFile(viewer, found.file, [{ as: 'recording', minTier: found.minTier }]))
        refuseFile(viewer, 'recording');
      return delivery(found.file, true);
    },

    async resourceDownload(viewer, resourceId) {
      const found = await data.files.findResourceFile(resourceId);
      if (!found) throw notFound('This resource has no download.');
      if (!mayOpenServedFile(viewer, found.file, [{ as: 'download', tierRequired: found.tierRequired }])) refuseFile(viewer, 'download');
      return delivery(found.file, true);
    },

    async sessionRecording(viewer, sessionId) {
      const found = await data.coaching.recordingFile(sessionId);
      if (!found) throw notFound('This session has no uploaded recording.');
      if (!mayOpenServedFile(viewer, found.file, [{ as: 'recording', minTier: found.minTier }])) refuseFile(viewer, 'recording');
      return delivery(found.file, true);
    },
  };
}
