import {
  GOLD_SPACE_ONLY,
  GOLD_SPACE_TIER,
  PARTICIPATION_TIER,
  SUSPENDED,
  UPGRADE_TO_PARTICIPATE,
  type CommunityPost,
  type CommunitySpace,
  type PostView,
  type ReplyView,
} from '../../common/community.contract.ts';
import { isEntitled } from '../../common/tiers.ts';
import type { SignedInMember, Viewer } from '../../common/viewer.ts';
import type { PostRow, ReplyRow } from './community.repository.ts';

// What the community shows and who may take part, shared by the members' side and the moderators'.

/** The start of a text, ending with an ellipsis when cut (notices: 160 characters; the report queue more). */
export const excerpt = (text: string, length = 160) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);
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

/** Whether this viewer reads the Gold Lounge: decided on every read, from the tier they have now. */
export const readsGold = (viewer: Viewer) => isEntitled(viewer.member?.membershipTier, GOLD_SPACE_TIER);

/** Why this member may not take part (in this space), or null when they may. */
export function refusal(member: SignedInMember, space: CommunitySpace): string | null {
  if (!isEntitled(member.membershipTier, PARTICIPATION_TIER)) return UPGRADE_TO_PARTICIPATE;
  if (member.communitySuspendedAt) return SUSPENDED;
  if (space === 'gold' && !isEntitled(member.membershipTier, GOLD_SPACE_TIER)) return GOLD_SPACE_ONLY;
  return null;
}

/** What the viewer may do in a space, so pages show the right buttons (the service checks again). */
export function rightsOf(viewer: Viewer, space: CommunitySpace) {
  const member = viewer.member;
  const reason = member ? refusal(member, space) : 'Sign in to take part in the community.';
  const canLike = member !== null && isEntitled(member.membershipTier, PARTICIPATION_TIER) && (space === 'general' || readsGold(viewer));
  return { can_post: reason === null, can_like: canLike, can_read_gold: readsGold(viewer), reason };
}
