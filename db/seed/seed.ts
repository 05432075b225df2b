import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, like, isNull } from 'drizzle-orm';
import { CONTENT_DEFAULTS, CONTENT_SECTION_KEYS } from '../../common/content-sections.ts';
import type { UploadFolder } from '../../common/files.contract.ts';
import type { ResourceType } from '../../common/resources.contract.ts';
import type { Tier } from '../../common/tiers.ts';
import type { Database, DatabaseOrTransaction } from '../client.ts';
import {
  ceRequirements,
  communityPosts,
  communityReplies,
  contentSections,
  courses,
  lessons,
  podcastEpisodes,
  resources,
  uploadedFiles,
} from '../schema.ts';
import { DEMO_CE_REQUIREMENTS, DEMO_COURSES, DEMO_EPISODES, DEMO_POSTS, DEMO_RESOURCES } from './demo-catalogue.ts';

/** Where the seed puts the demo videos and downloads: the site's file store (local disk or a bucket). */
export interface SeedFileStore {
  put(key: string, body: Buffer, contentType: string, options?: { attachment?: string }): Promise<void>;
}

const DEMO_FILES_DIR = path.join(import.meta.dirname, 'files');
const RESOURCE_FOLDER: Record<ResourceType, UploadFolder> = {
  daily_tip: 'course-materials',
  ebook: 'ebooks',
  workbook: 'templates',
  article: 'course-materials',
  market_report: 'course-materials',
};

/**
 * Stores one demo file (`lessons/x.webm`, `downloads/y.pdf`) in the file store as a members-only file
 * at `tier`, once per file and tier, and returns its id.
 */
function demoFileImporter(db: DatabaseOrTransaction, store: SeedFileStore) {
  const imported = new Map<string, string>();
  return async (demoFile: string, folder: UploadFolder, tier: Tier): Promise<string> => {
    const known = imported.get(`${demoFile}:${tier}`);
    if (known) return known;
    const content = fs.readFileSync(path.join(DEMO_FILES_DIR, demoFile));
    const extension = path.extname(demoFile).slice(1);
    const contentType = extension === 'webm' ? 'video/webm' : 'application/pdf';
    const key = `${folder}/${randomBytes(16).toString('hex')}.${extension}`;
    await store.put(key, content, contentType);
    const [row] = await db
      .insert(uploadedFiles)
      .values({
        filename: path.basename(demoFile),
        folder,
        storageKey: key,
        contentType,
        sizeBytes: content.length,
        accessTier: tier,
        uploadedBy: 'demo catalogue',
      })
      .returning({ id: uploadedFiles.id });
    imported.set(`${demoFile}:${tier}`, row!.id);
    return row!.id;
  };
}

/**
 * Loads the demo catalogue into an empty database, in one transaction. A database that already
 * holds courses is left as it is, so a restart never duplicates or overwrites anything.
 * Returns whether anything was loaded.
 */
export async function seedDemoCatalogue(db: Database, store: SeedFileStore): Promise<boolean> {
  return db.transaction(async (tx) => {
    // One row tells: a start never counts a whole table.
    const existing = await tx.select({ id: courses.id }).from(courses).limit(1);
    if (existing.length > 0) return false;
    const importFile = demoFileImporter(tx, store);

    await tx.insert(courses).values(
      DEMO_COURSES.map((course, position) => ({
        id: course.id,
        title: course.title,
        description: course.description,
        category: course.category,
        tier: course.tier,
        thumbnail: course.thumbnail,
        duration: course.duration,
        instructor: course.instructor,
        level: course.level,
        certificate: course.certificate,
        position,
      })),
    );
    const videoIds = new Map<string, string>();
    for (const course of DEMO_COURSES) {
      for (const lesson of course.lessons) {
        if (lesson.video_file) videoIds.set(`${course.id}:${lesson.id}`, await importFile(lesson.video_file, 'videos', course.tier));
      }
    }
    await tx.insert(lessons).values(
      DEMO_COURSES.flatMap((course) =>
        course.lessons.map((lesson, position) => ({
          id: lesson.id,
          courseId: course.id,
          position,
          title: lesson.title,
          duration: lesson.duration,
          description: lesson.description,
          videoFileId: lesson.video_file ? videoIds.get(`${course.id}:${lesson.id}`) : null,
        })),
      ),
    );
    await tx.insert(podcastEpisodes).values(
      DEMO_EPISODES.map((episode) => ({
        id: episode.id,
        title: episode.title,
        description: episode.description,
        thumbnail: episode.thumbnail,
        season: episode.season,
        episode: episode.episode,
        duration: episode.duration,
        spotifyUrl: episode.spotify_url,
        audioUrl: episode.spotify_url,
        publishedAt: new Date(episode.published_at),
      })),
    );
    const downloadIds = new Map<string, string>();
    for (const resource of DEMO_RESOURCES) {
      if (resource.download_file) {
        downloadIds.set(
          resource.id,
          await importFile(resource.download_file, RESOURCE_FOLDER[resource.resource_type], resource.tier_required),
        );
      }
    }
    await tx.insert(resources).values(
      DEMO_RESOURCES.map((resource, position) => ({
        id: resource.id,
        title: resource.title,
        description: resource.description,
        resourceType: resource.resource_type,
        tierRequired: resource.tier_required,
        fileId: resource.download_file ? downloadIds.get(resource.id) : null,
        position,
      })),
    );
    await tx.insert(communityPosts).values(
      DEMO_POSTS.map((post) => ({
        id: post.id,
        userName: post.user_name,
        title: post.title,
        content: post.content,
        repliesCount: post.replies.length,
        createdAt: new Date(post.created_at),
      })),
    );
    await tx.insert(communityReplies).values(
      DEMO_POSTS.flatMap((post) =>
        post.replies.map((reply) => ({
          postId: post.id,
          authorName: reply.user_name,
          body: reply.body,
          createdAt: new Date(reply.created_at),
        })),
      ),
    );
    await tx
      .insert(ceRequirements)
      .values(DEMO_CE_REQUIREMENTS.map((requirement) => ({ ...requirement, checkWithCommission: true })))
      .onConflictDoNothing();
    await tx
      .insert(contentSections)
      .values(CONTENT_SECTION_KEYS.map((key) => ({ key, data: { ...CONTENT_DEFAULTS[key] }, updatedBy: 'demo catalogue' })))
      .onConflictDoNothing();
    return true;
  });
}

/**
 * Demo catalogues loaded by earlier versions linked their videos and downloads as public files under
 * /media and /downloads. Those now live in the file store, members-only: this moves such links over,
 * once (it finds nothing to do afterwards).
 */
export async function moveDemoMediaIntoFileStore(db: Database, store: SeedFileStore): Promise<number> {
  return db.transaction(async (tx) => {
    const importFile = demoFileImporter(tx, store);
    const oldLessons = await tx
      .select({ id: lessons.id, videoUrl: lessons.videoUrl, tier: courses.tier })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(and(like(lessons.videoUrl, '/media/lessons/%'), isNull(lessons.videoFileId)));
    for (const lesson of oldLessons) {
      const file = `lessons/${path.basename(lesson.videoUrl!)}`;
      if (!fs.existsSync(path.join(DEMO_FILES_DIR, file))) continue;
      const fileId = await importFile(file, 'videos', lesson.tier);
      await tx.update(lessons).set({ videoFileId: fileId, videoUrl: null }).where(eq(lessons.id, lesson.id));
    }
    const oldResources = await tx
      .select({ id: resources.id, downloadUrl: resources.downloadUrl, tier: resources.tierRequired, type: resources.resourceType })
      .from(resources)
      .where(and(like(resources.downloadUrl, '/downloads/%'), isNull(resources.fileId)));
    for (const resource of oldResources) {
      const file = `downloads/${path.basename(resource.downloadUrl!)}`;
      if (!fs.existsSync(path.join(DEMO_FILES_DIR, file))) continue;
      const fileId = await importFile(file, RESOURCE_FOLDER[resource.type], resource.tier);
      await tx.update(resources).set({ fileId, downloadUrl: null }).where(eq(resources.id, resource.id));
    }
    return oldLessons.length + oldResources.length;
  });
}
