import { and, desc, eq, getTableColumns, like, not, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { UploadFolder } from '../../common/files.contract.ts';
import type { FileUse } from '../../common/policies.ts';
import type { Tier } from '../../common/tiers.ts';
import type { CaptionLanguage } from '../../common/course-kinds.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import {
  coachingSeries,
  coachingSessions,
  courses,
  lessonAttachments,
  lessonCaptions,
  recordingCaptions,
  lessons,
  podcastEpisodes,
  resources,
  uploadedFiles,
} from '../../db/schema.ts';

/** What the opening rules read of a lesson that serves a file (free preview, drip). */
const lessonPlaceColumns = {
  lessonId: lessons.id,
  freePreview: lessons.freePreview,
  opensAfterDays: lessons.opensAfterDays,
  opensOn: lessons.opensOn,
};
/** The same columns for a place that is no lesson (never read). */
const NO_LESSON_PLACE = {
  lessonId: sql<string>`null`,
  freePreview: sql<boolean>`false`,
  opensAfterDays: sql<number | null>`null`,
  opensOn: sql<string | null>`null`,
};

export function createFilesRepository(db: DatabaseOrTransaction) {
  return {
    /** The library, newest first, after `before` (a page); names containing `search` only, when given. */
    async latest(limit: number, before?: { createdAt: string; id: string }, search?: string) {
      const pattern = search ? `%${search.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%` : undefined;
      return db
        .select({ ...getTableColumns(uploadedFiles), createdKey: sql<string>`${uploadedFiles.createdAt}::text` })
        .from(uploadedFiles)
        .where(
          and(
            before
              ? sql`(${uploadedFiles.createdAt}, ${uploadedFiles.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`
              : undefined,
            pattern ? sql`lower(${uploadedFiles.filename}) like ${pattern}` : undefined,
          ),
        )
        .orderBy(desc(uploadedFiles.createdAt), desc(uploadedFiles.id))
        .limit(limit);
    },

    /** The newest files of one kind, for a picker: public images, videos, or anything but videos. */
    async latestOfKind(kind: 'images' | 'videos' | 'attachments', limit: number) {
      const of = {
        images: and(like(uploadedFiles.contentType, 'image/%'), sql`${uploadedFiles.accessTier} is null`),
        videos: like(uploadedFiles.contentType, 'video/%'),
        attachments: not(like(uploadedFiles.contentType, 'video/%')),
      }[kind];
      return db
        .select({ ...getTableColumns(uploadedFiles), createdKey: sql<string>`${uploadedFiles.createdAt}::text` })
        .from(uploadedFiles)
        .where(of)
        .orderBy(desc(uploadedFiles.createdAt), desc(uploadedFiles.id))
        .limit(limit);
    },

    async findById(id: string) {
      const [row] = await db.select().from(uploadedFiles).where(eq(uploadedFiles.id, id)).limit(1);
      return row ?? null;
    },

    async findByStorageKey(storageKey: string) {
      const [row] = await db.select().from(uploadedFiles).where(eq(uploadedFiles.storageKey, storageKey)).limit(1);
      return row ?? null;
    },

    /** A lesson's stored video with the tier of its course; null when the lesson has none. */
    async findLessonVideo(lessonId: string) {
      const [row] = await db
        .select({ file: uploadedFiles, courseId: courses.id, courseTier: courses.tier, ...lessonPlaceColumns })
        .from(lessons)
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .innerJoin(uploadedFiles, eq(uploadedFiles.id, lessons.videoFileId))
        .where(eq(lessons.id, lessonId));
      return row ?? null;
    },

    /** A lesson's captions in one language, with its course as the video's check needs it; null when it has none. */
    async findLessonCaptions(lessonId: string, language: string) {
      const [row] = await db
        .select({ file: uploadedFiles, courseId: courses.id, courseTier: courses.tier, ...lessonPlaceColumns })
        .from(lessonCaptions)
        .innerJoin(lessons, eq(lessons.id, lessonCaptions.lessonId))
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .innerJoin(uploadedFiles, eq(uploadedFiles.id, lessonCaptions.fileId))
        .where(and(eq(lessonCaptions.lessonId, lessonId), eq(lessonCaptions.language, language as CaptionLanguage)));
      return row ?? null;
    },

    /**
     * The places that serve the file through a check of their own (each lesson with it as video, with
     * its course, or as an attachment; each resource with it as download; each coaching session with it
     * as recording), in
     * one statement: the file's id answers to all of them.
     */
    async gatedUsesOf(id: string): Promise<FileUse[]> {
      // One row shape for the four: only a lesson's rows have a course (the others' null is never read).
      const rows = await unionAll(
        db
          .select({ as: sql<FileUse['as']>`'lesson video'`, tier: courses.tier, courseId: courses.id, ...lessonPlaceColumns })
          .from(lessons)
          .innerJoin(courses, eq(courses.id, lessons.courseId))
          .where(eq(lessons.videoFileId, id)),
        // A lesson's captions are part of its video: they open where it opens.
        db
          .select({ as: sql<FileUse['as']>`'lesson video'`, tier: courses.tier, courseId: courses.id, ...lessonPlaceColumns })
          .from(lessonCaptions)
          .innerJoin(lessons, eq(lessons.id, lessonCaptions.lessonId))
          .innerJoin(courses, eq(courses.id, lessons.courseId))
          .where(eq(lessonCaptions.fileId, id)),
        db
          .select({
            as: sql<FileUse['as']>`'download'`,
            tier: resources.tierRequired,
            courseId: sql<string>`null`,
            ...NO_LESSON_PLACE,
          })
          .from(resources)
          .where(eq(resources.fileId, id)),
        db
          .select({
            as: sql<FileUse['as']>`'recording'`,
            tier: coachingSeries.minTier,
            courseId: sql<string>`null`,
            ...NO_LESSON_PLACE,
          })
          .from(coachingSessions)
          .innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId))
          .where(eq(coachingSessions.recordingFileId, id)),
        // A recording's captions open where the recording opens.
        db
          .select({
            as: sql<FileUse['as']>`'recording'`,
            tier: coachingSeries.minTier,
            courseId: sql<string>`null`,
            ...NO_LESSON_PLACE,
          })
          .from(recordingCaptions)
          .innerJoin(coachingSessions, eq(coachingSessions.id, recordingCaptions.sessionId))
          .innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId))
          .where(eq(recordingCaptions.fileId, id)),
        db
          .select({
            as: sql<FileUse['as']>`'lesson attachment'`,
            tier: courses.tier,
            courseId: courses.id,
            lessonId: lessons.id,
            // An attachment waits for its lesson's drip, free preview or not (its video alone is the preview).
            freePreview: sql<boolean>`false`,
            opensAfterDays: lessons.opensAfterDays,
            opensOn: lessons.opensOn,
          })
          .from(lessonAttachments)
          .innerJoin(lessons, eq(lessons.id, lessonAttachments.lessonId))
          .innerJoin(courses, eq(courses.id, lessons.courseId))
          .where(eq(lessonAttachments.fileId, id)),
      );
      return rows.map((row): FileUse => {
        const schedule = { lessonId: row.lessonId, opensAfterDays: row.opensAfterDays, opensOn: row.opensOn };
        if (row.as === 'lesson video')
          return { as: row.as, courseTier: row.tier, freePreview: row.freePreview, courseId: row.courseId, ...schedule };
        if (row.as === 'lesson attachment') return { as: row.as, courseTier: row.tier, courseId: row.courseId, ...schedule };
        return row.as === 'download' ? { as: row.as, tierRequired: row.tier } : { as: row.as, minTier: row.tier };
      });
    },

    /** A resource's stored file with the tier it requires; null when the resource has none. */
    async findResourceFile(resourceId: string) {
      const [row] = await db
        .select({ file: uploadedFiles, tierRequired: resources.tierRequired })
        .from(resources)
        .innerJoin(uploadedFiles, eq(uploadedFiles.id, resources.fileId))
        .where(eq(resources.id, resourceId));
      return row ?? null;
    },

    async create(values: {
      filename: string;
      folder: UploadFolder;
      storageKey: string;
      contentType: string;
      sizeBytes: number;
      accessTier: Tier | null;
      uploadedBy: string;
      variants?: { width: number; key: string }[];
    }): Promise<{ id: string }> {
      const [row] = await db.insert(uploadedFiles).values(values).returning({ id: uploadedFiles.id });
      return row!;
    },

    async setAccessTier(id: string, accessTier: Tier | null): Promise<void> {
      await db.update(uploadedFiles).set({ accessTier }).where(eq(uploadedFiles.id, id));
    },

    async rename(id: string, filename: string): Promise<void> {
      await db.update(uploadedFiles).set({ filename }).where(eq(uploadedFiles.id, id));
    },

    async remove(id: string): Promise<void> {
      await db.delete(uploadedFiles).where(eq(uploadedFiles.id, id));
    },

    /** Where the file is used, in words staff recognise ('the thumbnail of “Title”'). */
    async usesOf(id: string): Promise<string[]> {
      const [thumbnails, videos, captions, attachments, downloads, artwork, recordings, captionedRecordings] = await Promise.all([
        db.select({ title: courses.title }).from(courses).where(eq(courses.thumbnailFileId, id)),
        db.select({ title: lessons.title }).from(lessons).where(eq(lessons.videoFileId, id)),
        db
          .select({ title: lessons.title })
          .from(lessonCaptions)
          .innerJoin(lessons, eq(lessons.id, lessonCaptions.lessonId))
          .where(eq(lessonCaptions.fileId, id)),
        db
          .select({ title: lessons.title })
          .from(lessonAttachments)
          .innerJoin(lessons, eq(lessons.id, lessonAttachments.lessonId))
          .where(eq(lessonAttachments.fileId, id)),
        db.select({ title: resources.title }).from(resources).where(eq(resources.fileId, id)),
        db.select({ title: podcastEpisodes.title }).from(podcastEpisodes).where(eq(podcastEpisodes.thumbnailFileId, id)),
        db
          .select({ title: coachingSeries.title })
          .from(coachingSessions)
          .innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId))
          .where(eq(coachingSessions.recordingFileId, id)),
        db
          .select({ title: coachingSeries.title })
          .from(recordingCaptions)
          .innerJoin(coachingSessions, eq(coachingSessions.id, recordingCaptions.sessionId))
          .innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId))
          .where(eq(recordingCaptions.fileId, id)),
      ]);
      return [
        ...thumbnails.map((row) => `the thumbnail of the course “${row.title}”`),
        ...videos.map((row) => `the video of the lesson “${row.title}”`),
        ...captions.map((row) => `the captions of the lesson “${row.title}”`),
        ...attachments.map((row) => `an attachment of the lesson “${row.title}”`),
        ...downloads.map((row) => `the download of the resource “${row.title}”`),
        ...artwork.map((row) => `the artwork of the episode “${row.title}”`),
        ...recordings.map((row) => `the recording of the coaching session “${row.title}”`),
        ...captionedRecordings.map((row) => `the captions of the recording of the coaching session “${row.title}”`),
      ];
    },
  };
}
