import { desc } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { communityPosts } from '../../db/schema.ts';

export function createCommunityRepository(db: DatabaseOrTransaction) {
  return {
    /** Newest first. */
    async list() {
      return db.select().from(communityPosts).orderBy(desc(communityPosts.createdAt), desc(communityPosts.id));
    },
  };
}

export type CommunityRepository = ReturnType<typeof createCommunityRepository>;
