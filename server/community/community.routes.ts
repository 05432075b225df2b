import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { CommunityPost } from '../../common/catalogue.ts';
import { COMMUNITY_PREVIEW_POSTS } from '../../common/limits.ts';
import { communityPosts } from '../../db/schema.ts';
import { optionalMember } from '../sessions/session.plugin.ts';

export async function communityRoutes(app: FastifyInstance) {
  // SPEC 6: members read every post; a visitor gets the full text of the first two only, so the
  // blur on the page cannot be lifted by reading the page source.
  app.get('/api/community/posts', async (request): Promise<CommunityPost[]> => {
    const member = await optionalMember(request);
    const rows = await app.database.select().from(communityPosts).orderBy(desc(communityPosts.createdAt), desc(communityPosts.id));
    return rows.map((row, index) => ({
      id: row.id,
      user_name: row.userName,
      title: row.title,
      content: member || index < COMMUNITY_PREVIEW_POSTS ? row.content : null,
      created_at: row.createdAt.toISOString(),
      likes_count: row.likesCount,
      replies_count: row.repliesCount,
    }));
  });
}
