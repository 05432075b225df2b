import type { CommunityService } from '../../common/community.contract.ts';
import { COMMUNITY_PREVIEW_POSTS } from '../../common/limits.ts';
import type { CommunityRepository } from './community.repository.ts';

export function createCommunityService(repository: CommunityRepository): CommunityService {
  return {
    // SPEC 6: members read every post; a visitor gets the full text of the first two only, so the
    // blur on the page cannot be lifted by reading the page source.
    async list(viewer) {
      const rows = await repository.list();
      return rows.map((row, index) => ({
        id: row.id,
        user_name: row.userName,
        title: row.title,
        content: viewer.member || index < COMMUNITY_PREVIEW_POSTS ? row.content : null,
        created_at: row.createdAt.toISOString(),
        likes_count: row.likesCount,
        replies_count: row.repliesCount,
      }));
    },
  };
}
