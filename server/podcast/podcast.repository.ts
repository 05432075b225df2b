import { desc, eq, notInArray } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { podcastEpisodes } from '../../db/schema.ts';

export type EpisodeFields = Omit<typeof podcastEpisodes.$inferInsert, 'id'>;

export function createPodcastRepository(db: DatabaseOrTransaction) {
  return {
    /** Newest first. */
    async list() {
      return db.select().from(podcastEpisodes).orderBy(desc(podcastEpisodes.publishedAt), desc(podcastEpisodes.id));
    },

    async deleteAllExcept(ids: string[]): Promise<void> {
      if (ids.length === 0) await db.delete(podcastEpisodes);
      else await db.delete(podcastEpisodes).where(notInArray(podcastEpisodes.id, ids));
    },

    async insert(id: string, fields: EpisodeFields): Promise<void> {
      await db.insert(podcastEpisodes).values({ id, ...fields });
    },

    async update(id: string, fields: Partial<EpisodeFields>): Promise<void> {
      await db.update(podcastEpisodes).set(fields).where(eq(podcastEpisodes.id, id));
    },
  };
}

export type PodcastRepository = ReturnType<typeof createPodcastRepository>;
