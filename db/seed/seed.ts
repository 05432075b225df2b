import { count } from 'drizzle-orm';
import { CONTENT_DEFAULTS, CONTENT_SECTION_KEYS } from '../../common/content-sections.ts';
import type { Database } from '../client.ts';
import { communityPosts, contentSections, courses, lessons, podcastEpisodes, resources } from '../schema.ts';
import { DEMO_COURSES, DEMO_EPISODES, DEMO_POSTS, DEMO_RESOURCES } from './demo-catalogue.ts';

/**
 * Loads the demo catalogue into an empty database, in one transaction. A database that already
 * holds courses is left as it is, so a restart never duplicates or overwrites anything.
 * Returns whether anything was loaded.
 */
export async function seedDemoCatalogue(db: Database): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ value: count() }).from(courses);
    if (existing && existing.value > 0) return false;

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
        position,
      })),
    );
    await tx.insert(lessons).values(
      DEMO_COURSES.flatMap((course) =>
        course.lessons.map((lesson, position) => ({
          id: lesson.id,
          courseId: course.id,
          position,
          title: lesson.title,
          duration: lesson.duration,
          description: lesson.description,
          videoUrl: lesson.video_url,
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
    await tx.insert(resources).values(
      DEMO_RESOURCES.map((resource, position) => ({
        id: resource.id,
        title: resource.title,
        description: resource.description,
        resourceType: resource.resource_type,
        tierRequired: resource.tier_required,
        downloadUrl: resource.download_url,
        position,
      })),
    );
    await tx.insert(communityPosts).values(
      DEMO_POSTS.map((post) => ({
        id: post.id,
        userName: post.user_name,
        title: post.title,
        content: post.content,
        likesCount: post.likes_count,
        repliesCount: post.replies_count,
        createdAt: new Date(post.created_at),
      })),
    );
    await tx
      .insert(contentSections)
      .values(CONTENT_SECTION_KEYS.map((key) => ({ key, data: { ...CONTENT_DEFAULTS[key] }, updatedBy: 'demo catalogue' })))
      .onConflictDoNothing();
    return true;
  });
}
