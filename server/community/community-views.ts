import type { CommunityPost, CommunitySpace, PostView, ReplyView } from '../../common/community.contract.ts';
import { mayLike, mayReadGoldLounge, postingRefusal } from '../../common/policies.ts';
import type { Viewer } from '../../common/viewer.ts';
import type { PostRow, ReplyRow } from './community.repository.ts';
import { SHOWN } from '../../common/limits.ts';

// What the community shows and who may take part, shared by the members' side and the moderators'.

/** The start of a text, ending with an ellipsis when cut (notices: SHOWN.excerpt characters; the report queue more). */
export const excerpt = (text: string, length: number = SHOWN.excerpt) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);
const iso = (date: Date | null) => date?.toISOString() ?? null;

export function postView(row: PostRow, memberId: string | undefined, liked: Set<string>): PostView {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    author: { name: row.userName, tier: row.authorTier },
    space: row.space,
    created_at: row.createdAt.toISOString(),
    edited_at: iso(row.editedAt),
    likes_count: row.likesCount,
    replies_count: row.repliesCount,
    liked_by_me: liked.has(row.id),
    mine: memberId !== undefined && row.authorId === memberId,
    pinned: row.pinnedAt !== null,
    locked: row.lockedAt !== null,
  };
}

export function replyView(row: ReplyRow, memberId: string | undefined): ReplyView {
  return {
    id: row.id,
    post_id: row.postId,
    body: row.body,
    author: { name: row.authorName, tier: row.authorTier },
    created_at: row.createdAt.toISOString(),
    edited_at: iso(row.editedAt),
    mine: memberId !== undefined && row.authorId === memberId,
  };
}

/** SPEC 3 Community post; content is null where the viewer may not read it (a visitor past the preview). */
export const previewPost = (row: PostRow, readable: boolean): CommunityPost => ({
  id: row.id,
  user_name: row.userName,
  title: row.title,
  content: readable ? row.content : null,
  created_at: row.createdAt.toISOString(),
  likes_count: row.likesCount,
  replies_count: row.repliesCount,
});

/** What the viewer may do in a space, so pages show the right buttons (the service checks again). */
export function rightsOf(viewer: Viewer, space: CommunitySpace) {
  const reason = postingRefusal(viewer, space);
  return { can_post: reason === null, can_like: mayLike(viewer, space), can_read_gold: mayReadGoldLounge(viewer), reason };
}
