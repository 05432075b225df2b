import { desc, eq } from 'drizzle-orm';
import type { UploadFolder } from '../../common/files.contract.ts';
import type { Tier } from '../../common/tiers.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { courses, lessonAttachments, lessons, podcastEpisodes, resources, uploadedFiles } from '../../db/schema.ts';

export function createFilesRepository(db: DatabaseOrTransaction) {
  return {
    /** Newest first. */
    async latest(limit: number) {
      return db.select().from(uploadedFiles).orderBy(desc(uploadedFiles.createdAt)).limit(limit);
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
        .select({ file: uploadedFiles, courseId: courses.id, courseTier: courses.tier, freePreview: lessons.freePreview })
        .from(lessons)
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .innerJoin(uploadedFiles, eq(uploadedFiles.id, lessons.videoFileId))
        .where(eq(lessons.id, lessonId));
      return row ?? null;
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
      const [thumbnails, videos, attachments, downloads, artwork] = await Promise.all([
        db.select({ title: courses.title }).from(courses).where(eq(courses.thumbnailFileId, id)),
        db.select({ title: lessons.title }).from(lessons).where(eq(lessons.videoFileId, id)),
        db
          .select({ title: lessons.title })
          .from(lessonAttachments)
          .innerJoin(lessons, eq(lessons.id, lessonAttachments.lessonId))
          .where(eq(lessonAttachments.fileId, id)),
        db.select({ title: resources.title }).from(resources).where(eq(resources.fileId, id)),
        db.select({ title: podcastEpisodes.title }).from(podcastEpisodes).where(eq(podcastEpisodes.thumbnailFileId, id)),
      ]);
      return [
        ...thumbnails.map((row) => `the thumbnail of the course “${row.title}”`),
        ...videos.map((row) => `the video of the lesson “${row.title}”`),
        ...attachments.map((row) => `an attachment of the lesson “${row.title}”`),
        ...downloads.map((row) => `the download of the resource “${row.title}”`),
        ...artwork.map((row) => `the artwork of the episode “${row.title}”`),
      ];
    },
  };
}
