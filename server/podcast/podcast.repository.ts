import { desc, notInArray } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { podcastEpisodes } from '../../db/schema.ts';

export interface EpisodeFields {
  title: string;
  spotifyUrl: string;
  audioUrl: string;
  description: string;
  duration: string;
}

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

    /** Inserts a new episode (published now) or updates the editable fields of an existing one. */
    async upsert(id: string, fields: EpisodeFields): Promise<void> {
      await db
        .insert(podcastEpisodes)
        .values({ id, ...fields })
        .onConflictDoUpdate({ target: podcastEpisodes.id, set: fields });
    },
  };
}

export type PodcastRepository = ReturnType<typeof createPodcastRepository>;
