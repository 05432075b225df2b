import { z } from 'zod';
import { cursorParam, requiredText, searchParam, slugParam, uuidParam } from './fields.ts';
import { Tier } from './tiers.ts';
import type { AfterQuery, BeforeQuery, Paged, SearchQuery } from './paging.ts';
import type { Viewer } from './viewer.ts';
import { TEXT_MAX } from './limits.ts';

// The community: visitors see the spec's preview; members read; Bronze and above take part; Gold
// members have a space of their own; staff moderate.

/** SPEC 3 Community post, as the preview list shows it. content is null for a visitor past the preview. */
export const CommunityPost = z.object({
  id: z.string(),
  user_name: z.string(),
  title: z.string(),
  content: z.string().nullable(),
  created_at: z.string(),
  likes_count: z.number().int(),
  replies_count: z.number().int(),
});
export type CommunityPost = z.infer<typeof CommunityPost>;
export const CommunityPostList = z.array(CommunityPost);
/** `GET /api/community/posts?before=`: the spec's array, a page at a time; the next page is in the `Link` header. */
export const PreviewQuery = z.object({ before: cursorParam().optional() });
export type PreviewQuery = z.infer<typeof PreviewQuery>;

export const COMMUNITY_SPACES = ['general', 'gold'] as const;
const FEED_SORTS = ['newest', 'top'] as const;

// Who may take part (Bronze and above) and read the Gold Lounge (Gold) is decided in policies.ts.
export const UPGRADE_TO_PARTICIPATE = 'Upgrade to Bronze or above to post, reply and like in the community.';
export const GOLD_SPACE_ONLY = 'The Gold Lounge is for Gold members.';
export const SUSPENDED = 'Your account is suspended from posting in the community. Contact us if you think this is a mistake.';
export const THREAD_LOCKED = 'This discussion is locked: it takes no new replies.';
export const POST_NOT_FOUND = 'Discussion not found';
export const REPLY_NOT_FOUND = 'Reply not found';

export const CommunitySpace = z.enum(COMMUNITY_SPACES, { error: 'Space must be general or gold' });
export type CommunitySpace = z.infer<typeof CommunitySpace>;

const Author = z.object({
  name: z.string(),
  /** The author's tier when they wrote it; Silver and Gold show as a badge. */
  tier: Tier.nullable(),
});

export const PostView = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  author: Author,
  space: CommunitySpace,
  created_at: z.string(),
  edited_at: z.string().nullable(),
  likes_count: z.number().int(),
  replies_count: z.number().int(),
  liked_by_me: z.boolean(),
  mine: z.boolean(),
  pinned: z.boolean(),
  locked: z.boolean(),
});
export type PostView = z.infer<typeof PostView>;

export const ReplyView = z.object({
  id: z.string(),
  post_id: z.string(),
  body: z.string(),
  author: Author,
  created_at: z.string(),
  edited_at: z.string().nullable(),
  mine: z.boolean(),
});
export type ReplyView = z.infer<typeof ReplyView>;

export const FeedQuery = z.object({
  sort: z.enum(FEED_SORTS, { error: 'Sort must be newest or top' }).default('newest'),
  space: CommunitySpace.default('general'),
  /** Words to find in titles and messages; the best matches come first. */
  q: searchParam(),
  /** The next page: the `next_cursor` of the page before. */
  before: cursorParam().optional(),
});
export type FeedQuery = z.infer<typeof FeedQuery>;

/** What the viewer may do here, so pages show the right buttons (the service checks again). */
const Rights = z.object({
  can_post: z.boolean(),
  /** Liking is not posting: a suspended member may still like. */
  can_like: z.boolean(),
  can_read_gold: z.boolean(),
  /** Why the viewer may not take part, when they may not. */
  reason: z.string().nullable(),
});

export const FeedResponse = z.object({
  /** One page; the first page of 'newest' starts with the pinned discussions. */
  posts: z.array(PostView),
  /** Ask for `?before=` this to read the next page; null on the last one. */
  next_cursor: z.string().nullable(),
  /** Discussions in this space (or found by the search), on every page. */
  total: z.number().int(),
  sort: z.enum(FEED_SORTS),
  space: CommunitySpace,
  q: z.string().nullable(),
  rights: Rights,
});
export type FeedResponse = z.infer<typeof FeedResponse>;

/** A discussion with a page of its replies, oldest first; `?after=` `next_cursor` reads the next page. */
export const PostDetail = z.object({ post: PostView, replies: z.array(ReplyView), next_cursor: z.string().nullable(), rights: Rights });
export const PostQuery = z.object({ after: cursorParam().optional() });
export type PostQuery = z.infer<typeof PostQuery>;
export type PostDetail = z.infer<typeof PostDetail>;

// Demo discussions have readable ids; members' have UUIDs.
export const PostParams = z.object({ id: slugParam('Discussion id') });
export const ReplyParams = z.object({ id: uuidParam('Reply id') });

export const NewPostInput = z.object({
  title: requiredText('Title', TEXT_MAX.postTitle),
  body: requiredText('Message', TEXT_MAX.postBody, { multiline: true }),
  space: CommunitySpace.default('general'),
});
export type NewPostInput = z.infer<typeof NewPostInput>;
export const EditPostInput = NewPostInput.pick({ title: true, body: true });
export type EditPostInput = z.infer<typeof EditPostInput>;
export const ReplyInput = z.object({ body: requiredText('Reply', TEXT_MAX.reply, { multiline: true }) });
export type ReplyInput = z.infer<typeof ReplyInput>;
export const LikeResponse = z.object({ liked: z.boolean(), likes_count: z.number().int() });
export type LikeResponse = z.infer<typeof LikeResponse>;
export const ReportInput = z.object({
  post_id: slugParam('Discussion id'),
  reply_id: uuidParam('Reply id').optional(),
  reason: requiredText('Reason', TEXT_MAX.reportReason),
});
export type ReportInput = z.infer<typeof ReportInput>;

/** A reply to one of the member's own posts, for their dashboard. */
export const ReplyNotice = z.object({
  reply_id: z.string(),
  post_id: z.string(),
  post_title: z.string(),
  author_name: z.string(),
  excerpt: z.string(),
  created_at: z.string(),
});
export type ReplyNotice = z.infer<typeof ReplyNotice>;

// Staff moderation.
const MODERATIONS = ['hide', 'unhide', 'pin', 'unpin', 'lock', 'unlock', 'delete'] as const;
export const Moderation = z.enum(MODERATIONS, { error: 'Action must be hide, unhide, pin, unpin, lock, unlock or delete' });
export type Moderation = z.infer<typeof Moderation>;
const REPLY_MODERATIONS = ['hide', 'unhide', 'delete'] as const;
export const ReplyModeration = z.enum(REPLY_MODERATIONS, { error: 'Action must be hide, unhide or delete' });
export type ReplyModeration = z.infer<typeof ReplyModeration>;
export const ModerationInput = z.object({ action: Moderation });
export const ReplyModerationInput = z.object({ action: ReplyModeration });
export const SuspensionInput = z.object({ suspended: z.boolean({ error: 'suspended must be true or false' }) });

export const ReportView = z.object({
  id: z.string(),
  post_id: z.string(),
  post_title: z.string(),
  reply_id: z.string().nullable(),
  /** The reported text, as its author wrote it (its first 600 characters). */
  text: z.string(),
  author_name: z.string(),
  author_id: z.string().nullable(),
  author_suspended: z.boolean(),
  reporter_name: z.string(),
  reason: z.string(),
  created_at: z.string(),
  hidden: z.boolean(),
  pinned: z.boolean(),
  locked: z.boolean(),
});
export type ReportView = z.infer<typeof ReportView>;
export const ReportList = z.array(ReportView);

/** Every discussion as staff see it, hidden ones included, for pinning, locking and hiding. */
export const StaffDiscussion = z.object({
  id: z.string(),
  title: z.string(),
  author_name: z.string(),
  space: CommunitySpace,
  created_at: z.string(),
  likes_count: z.number().int(),
  replies_count: z.number().int(),
  hidden: z.boolean(),
  pinned: z.boolean(),
  locked: z.boolean(),
});
export type StaffDiscussion = z.infer<typeof StaffDiscussion>;
export const StaffDiscussionList = z.array(StaffDiscussion);

/** What members (and visitors, for the preview) do in the community. */
export interface CommunityService {
  /** SPEC 6 preview, newest first (pinned first on the first page); a visitor reads the first two only. */
  preview(viewer: Viewer, query: PreviewQuery): Promise<Paged<CommunityPost>>;
  /** Discussions the viewer may read (SPEC 9 'Community Posts' on the dashboard); counted in SQL. */
  count(viewer: Viewer): Promise<number>;
  feed(viewer: Viewer, query: FeedQuery): Promise<FeedResponse>;
  post(viewer: Viewer, postId: string, query?: PostQuery): Promise<PostDetail>;
  createPost(viewer: Viewer, input: NewPostInput): Promise<PostView>;
  editPost(viewer: Viewer, postId: string, input: EditPostInput): Promise<PostView>;
  deletePost(viewer: Viewer, postId: string): Promise<void>;
  reply(viewer: Viewer, postId: string, input: ReplyInput): Promise<ReplyView>;
  editReply(viewer: Viewer, replyId: string, input: ReplyInput): Promise<ReplyView>;
  deleteReply(viewer: Viewer, replyId: string): Promise<void>;
  /** Idempotent: liking twice is one like. */
  like(viewer: Viewer, postId: string, liked: boolean): Promise<LikeResponse>;
  report(viewer: Viewer, input: ReportInput): Promise<void>;
  /** Replies to the member's own posts, newest first, a page at a time. */
  repliesToMe(viewer: Viewer, query?: BeforeQuery): Promise<Paged<ReplyNotice>>;
  /** The member's latest own posts (their dashboard's highlights once they take part). */
  myPosts(viewer: Viewer): Promise<CommunityPost[]>;
}

/** What staff do in the community: the report queue, every discussion, and moderation (audited). */
export interface CommunityModerationService {
  /** Reports not yet dealt with, oldest first, a page at a time. */
  reports(viewer: Viewer, query: AfterQuery): Promise<Paged<ReportView>>;
  /** Every discussion, hidden ones included, newest first, a page at a time; searchable. */
  discussions(viewer: Viewer, query: SearchQuery): Promise<Paged<StaffDiscussion>>;
  moderatePost(viewer: Viewer, postId: string, action: Moderation): Promise<void>;
  moderateReply(viewer: Viewer, replyId: string, action: ReplyModeration): Promise<void>;
  resolveReport(viewer: Viewer, reportId: string): Promise<void>;
  suspend(viewer: Viewer, memberId: string, suspended: boolean): Promise<void>;
}
