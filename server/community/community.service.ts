import {
  FEED_PAGE_SIZE,
  GOLD_SPACE_ONLY,
  GOLD_SPACE_TIER,
  PARTICIPATION_TIER,
  POST_NOT_FOUND,
  REPLY_NOT_FOUND,
  SUSPENDED,
  THREAD_LOCKED,
  UPGRADE_TO_PARTICIPATE,
  type CommunityPost,
  type CommunityService,
  type CommunitySpace,
  type PostView,
  type ReplyView,
} from '../../common/community.contract.ts';
import { conflict, forbidden, notFound } from '../../common/errors.ts';
import { COMMUNITY_PREVIEW_POSTS } from '../../common/limits.ts';
import { isEntitled } from '../../common/tiers.ts';
import { requireMember, requireStaff, type SignedInMember, type Viewer } from '../../common/viewer.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import { queueOptionalMail, type Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import type { PostRow, ReplyRow } from './community.repository.ts';

const HOUR = 60 * 60 * 1000;
// Per member: enough for a lively day, not for a flood.
const POST_LIMIT = { max: 5, windowMs: HOUR };
const REPLY_LIMIT = { max: 30, windowMs: HOUR };
const REPORT_LIMIT = { max: 20, windowMs: HOUR };
/** The same text sent again this soon is a double submission or a flood, not a new message. */
const REPEAT_WINDOW_MS = 10 * 60 * 1000;
const NOTICES_SHOWN = 5;
const EXCERPT = 160;

const excerpt = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text);
const iso = (date: Date | null) => date?.toISOString() ?? null;

function postView(row: PostRow, memberId: string | undefined, liked: Set<string>): PostView {
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

function replyView(row: ReplyRow, memberId: string | undefined): ReplyView {
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

const previewPost = (row: PostRow, readable: boolean): CommunityPost => ({
  id: row.id,
  user_name: row.userName,
  title: row.title,
  content: readable ? row.content : null,
  created_at: row.createdAt.toISOString(),
  likes_count: row.likesCount,
  replies_count: row.repliesCount,
});

const readsGold = (viewer: Viewer) => isEntitled(viewer.member?.membershipTier, GOLD_SPACE_TIER);

/** Why this member may not take part (in this space), or null when they may. */
function refusal(member: SignedInMember, space: CommunitySpace): string | null {
  if (!isEntitled(member.membershipTier, PARTICIPATION_TIER)) return UPGRADE_TO_PARTICIPATE;
  if (member.communitySuspendedAt) return SUSPENDED;
  if (space === 'gold' && !isEntitled(member.membershipTier, GOLD_SPACE_TIER)) return GOLD_SPACE_ONLY;
  return null;
}

function rightsOf(viewer: Viewer, space: CommunitySpace) {
  const member = viewer.member;
  const reason = member ? refusal(member, space) : 'Sign in to take part in the community.';
  const canLike = member !== null && isEntitled(member.membershipTier, PARTICIPATION_TIER) && (space === 'general' || readsGold(viewer));
  return { can_post: reason === null, can_like: canLike, can_read_gold: readsGold(viewer), reason };
}

export function createCommunityService(deps: { data: DataAccess; limiter: AttemptLimiter; mailer: Mailer }): CommunityService {
  const { data, limiter, mailer } = deps;

  /** The post if this viewer may read it: never a hidden one, the Gold space for Gold members only. */
  async function readablePost(viewer: Viewer, postId: string): Promise<PostRow> {
    const post = await data.community.findPost(postId);
    if (!post || post.hiddenAt) throw notFound(POST_NOT_FOUND);
    if (post.space === 'gold' && !readsGold(viewer)) throw forbidden(GOLD_SPACE_ONLY);
    return post;
  }

  /** The signed-in member, if they may take part where the post is (or is to be). */
  function participant(viewer: Viewer, space: CommunitySpace): SignedInMember {
    const member = requireMember(viewer);
    const reason = refusal(member, space);
    if (reason) throw forbidden(reason);
    return member;
  }

  /** The member's own post or reply, for editing or deleting. */
  function ownedBy(member: SignedInMember, item: { authorId: string | null }, what: string) {
    if (item.authorId !== member.id) throw forbidden(`You can only change your own ${what}.`);
  }

  async function likedBy(viewer: Viewer): Promise<Set<string>> {
    return viewer.member ? data.community.likedPostIds(viewer.member.id) : new Set();
  }

  /** Tells the author of the post about a reply, unless they wrote it or unsubscribed. */
  async function noticeReply(tx: Repositories, post: PostRow, reply: ReplyRow) {
    if (!post.authorId || post.authorId === reply.authorId) return;
    const author = await tx.members.findAccount({ id: post.authorId });
    if (!author) return;
    await queueOptionalMail(tx, mailer, author, 'community-reply', (unsubscribeUrl) =>
      mailTemplates.communityReply({
        name: author.name,
        postTitle: post.title,
        replierName: reply.authorName,
        excerpt: excerpt(reply.body),
        postUrl: mailer.link(`/community/${encodeURIComponent(post.id)}`),
        unsubscribeUrl,
      }),
    );
  }

  return {
    // SPEC 6: members read every post they may; a visitor gets the full text of the first two only,
    // so the blur on the page cannot be lifted by reading the page source.
    async list(viewer) {
      const gold = readsGold(viewer);
      const rows = (await data.community.list()).filter((row) => !row.hiddenAt && (row.space === 'general' || gold));
      return rows.map((row, index) => previewPost(row, viewer.member !== null || index < COMMUNITY_PREVIEW_POSTS));
    },

    async feed(viewer, query) {
      const member = requireMember(viewer);
      if (query.space === 'gold' && !readsGold(viewer)) throw forbidden(GOLD_SPACE_ONLY);
      const rows = (await data.community.list()).filter((row) => !row.hiddenAt && row.space === query.space);
      // 'top': the most liked, then the most discussed; 'newest' keeps pinned discussions first.
      const ordered =
        query.sort === 'top'
          ? rows.toSorted(
              (a, b) => b.likesCount - a.likesCount || b.repliesCount - a.repliesCount || b.createdAt.getTime() - a.createdAt.getTime(),
            )
          : rows;
      const pageCount = Math.max(1, Math.ceil(ordered.length / FEED_PAGE_SIZE));
      const page = Math.min(query.page, pageCount);
      const liked = await likedBy(viewer);
      return {
        posts: ordered.slice((page - 1) * FEED_PAGE_SIZE, page * FEED_PAGE_SIZE).map((row) => postView(row, member.id, liked)),
        page,
        page_count: pageCount,
        total: ordered.length,
        sort: query.sort,
        space: query.space,
        rights: rightsOf(viewer, query.space),
      };
    },

    async post(viewer, postId) {
      const member = requireMember(viewer);
      const post = await readablePost(viewer, postId);
      const [replies, liked] = await Promise.all([data.community.replies(post.id), likedBy(viewer)]);
      return {
        post: postView(post, member.id, liked),
        replies: replies.filter((reply) => !reply.hiddenAt).map((reply) => replyView(reply, member.id)),
        rights: rightsOf(viewer, post.space),
      };
    },

    async createPost(viewer, input) {
      const member = participant(viewer, input.space);
      await limiter.check('community-post', member.id, POST_LIMIT);
      const row = await data.transaction(async (tx) => {
        await tx.community.lockAuthor(member.id);
        const latest = await tx.community.latestPostBy(member.id);
        if (
          latest &&
          latest.title === input.title &&
          latest.content === input.body &&
          Date.now() - latest.createdAt.getTime() < REPEAT_WINDOW_MS
        ) {
          throw conflict('You already posted this discussion.');
        }
        return tx.community.createPost({
          authorId: member.id,
          userName: member.name,
          authorTier: member.membershipTier,
          space: input.space,
          title: input.title,
          content: input.body,
        });
      });
      return postView(row, member.id, new Set());
    },

    async editPost(viewer, postId, input) {
      const member = requireMember(viewer);
      const post = await readablePost(viewer, postId);
      ownedBy(member, post, 'posts');
      participant(viewer, post.space);
      const row = await data.community.updatePost(post.id, { title: input.title, content: input.body, editedAt: new Date() });
      if (!row) throw notFound(POST_NOT_FOUND);
      return postView(row, member.id, await likedBy(viewer));
    },

    async deletePost(viewer, postId) {
      const member = requireMember(viewer);
      const post = await readablePost(viewer, postId);
      ownedBy(member, post, 'posts');
      await data.community.deletePost(post.id);
    },

    async reply(viewer, postId, input) {
      const post = await readablePost(viewer, postId);
      const member = participant(viewer, post.space);
      if (post.lockedAt) throw conflict(THREAD_LOCKED);
      await limiter.check('community-reply', member.id, REPLY_LIMIT);
      const reply = await data.transaction(async (tx) => {
        await tx.community.lockAuthor(member.id);
        await tx.community.lockPost(post.id);
        const latest = await tx.community.latestReplyBy(member.id);
        if (
          latest &&
          latest.postId === post.id &&
          latest.body === input.body &&
          Date.now() - latest.createdAt.getTime() < REPEAT_WINDOW_MS
        ) {
          throw conflict('You already sent this reply.');
        }
        const created = await tx.community.createReply({
          postId: post.id,
          authorId: member.id,
          authorName: member.name,
          authorTier: member.membershipTier,
          body: input.body,
        });
        await tx.community.recount(post.id);
        await noticeReply(tx, post, created);
        return created;
      });
      mailer.nudge();
      return replyView(reply, member.id);
    },

    async editReply(viewer, replyId, input) {
      const member = requireMember(viewer);
      const reply = await data.community.findReply(replyId);
      if (!reply || reply.hiddenAt) throw notFound(REPLY_NOT_FOUND);
      const post = await readablePost(viewer, reply.postId);
      ownedBy(member, reply, 'replies');
      participant(viewer, post.space);
      const row = await data.community.updateReply(reply.id, { body: input.body, editedAt: new Date() });
      if (!row) throw notFound(REPLY_NOT_FOUND);
      return replyView(row, member.id);
    },

    async deleteReply(viewer, replyId) {
      const member = requireMember(viewer);
      const reply = await data.community.findReply(replyId);
      if (!reply || reply.hiddenAt) throw notFound(REPLY_NOT_FOUND);
      ownedBy(member, reply, 'replies');
      await data.transaction(async (tx) => {
        await tx.community.lockPost(reply.postId);
        await tx.community.deleteReply(reply.id);
        await tx.community.recount(reply.postId);
      });
    },

    async like(viewer, postId, liked) {
      const post = await readablePost(viewer, postId);
      const member = requireMember(viewer);
      // Liking is not posting: a suspended member may still like, but only members who take part.
      if (!isEntitled(member.membershipTier, PARTICIPATION_TIER)) throw forbidden(UPGRADE_TO_PARTICIPATE);
      if (post.space === 'gold' && !readsGold(viewer)) throw forbidden(GOLD_SPACE_ONLY);
      const counted = await data.transaction(async (tx) => {
        await tx.community.lockPost(post.id);
        await tx.community.setLike(post.id, member.id, liked);
        return tx.community.recount(post.id);
      });
      return { liked, likes_count: counted?.likesCount ?? 0 };
    },

    async report(viewer, input) {
      const member = requireMember(viewer);
      const post = await readablePost(viewer, input.post_id);
      if (input.reply_id) {
        const reply = await data.community.findReply(input.reply_id);
        if (!reply || reply.hiddenAt || reply.postId !== post.id) throw notFound(REPLY_NOT_FOUND);
      }
      await limiter.check('community-report', member.id, REPORT_LIMIT);
      await data.community.createReport({ postId: post.id, replyId: input.reply_id ?? null, reporterId: member.id, reason: input.reason });
    },

    async repliesToMe(viewer) {
      const member = requireMember(viewer);
      const rows = await data.community.repliesTo(member.id, NOTICES_SHOWN);
      return rows.map(({ reply, postTitle }) => ({
        reply_id: reply.id,
        post_id: reply.postId,
        post_title: postTitle,
        author_name: reply.authorName,
        excerpt: excerpt(reply.body),
        created_at: reply.createdAt.toISOString(),
      }));
    },

    async myPosts(viewer) {
      const member = requireMember(viewer);
      return (await data.community.list())
        .filter((row) => row.authorId === member.id && !row.hiddenAt)
        .map((row) => previewPost(row, true));
    },

    async reports(viewer) {
      requireStaff(viewer);
      const rows = await data.community.openReports();
      return rows.map(({ report, post, reply, reporterName, authorSuspendedAt }) => ({
        id: report.id,
        post_id: post.id,
        post_title: post.title,
        reply_id: reply?.id ?? null,
        text: reply ? reply.body : post.content,
        author_name: reply ? reply.authorName : post.userName,
        author_id: (reply ? reply.authorId : post.authorId) ?? null,
        author_suspended: authorSuspendedAt !== null,
        reporter_name: reporterName,
        reason: report.reason,
        created_at: report.createdAt.toISOString(),
        hidden: (reply ? reply.hiddenAt : post.hiddenAt) !== null,
        pinned: post.pinnedAt !== null,
        locked: post.lockedAt !== null,
      }));
    },

    async discussionsForStaff(viewer) {
      requireStaff(viewer);
      return (await data.community.list()).map((row) => ({
        id: row.id,
        title: row.title,
        author_name: row.userName,
        space: row.space,
        created_at: row.createdAt.toISOString(),
        likes_count: row.likesCount,
        replies_count: row.repliesCount,
        hidden: row.hiddenAt !== null,
        pinned: row.pinnedAt !== null,
        locked: row.lockedAt !== null,
      }));
    },

    async moderatePost(viewer, postId, action) {
      const staff = requireStaff(viewer);
      await data.transaction(async (tx) => {
        const post = await tx.community.findPost(postId);
        if (!post) throw notFound(POST_NOT_FOUND);
        const now = new Date();
        if (action === 'delete') await tx.community.deletePost(post.id);
        else {
          const change = {
            hide: { hiddenAt: now },
            unhide: { hiddenAt: null },
            pin: { pinnedAt: now },
            unpin: { pinnedAt: null },
            lock: { lockedAt: now },
            unlock: { lockedAt: null },
          }[action];
          await tx.community.updatePost(post.id, change);
        }
        // Hiding or deleting deals with what was reported about the post.
        if (action === 'hide' || action === 'delete') await tx.community.resolveReportsAbout({ postId: post.id }, staff.email);
        await tx.audit.record({
          actorEmail: staff.email,
          action: `community.post.${action}`,
          target: post.title,
          oldValue: post.id,
          newValue: post.userName,
        });
      });
    },

    async moderateReply(viewer, replyId, action) {
      const staff = requireStaff(viewer);
      await data.transaction(async (tx) => {
        const reply = await tx.community.findReply(replyId);
        if (!reply) throw notFound(REPLY_NOT_FOUND);
        await tx.community.lockPost(reply.postId);
        if (action === 'delete') await tx.community.deleteReply(reply.id);
        else await tx.community.updateReply(reply.id, { hiddenAt: action === 'hide' ? new Date() : null });
        await tx.community.recount(reply.postId);
        if (action !== 'unhide') await tx.community.resolveReportsAbout({ replyId: reply.id }, staff.email);
        await tx.audit.record({
          actorEmail: staff.email,
          action: `community.reply.${action}`,
          target: reply.authorName,
          oldValue: excerpt(reply.body),
          newValue: reply.postId,
        });
      });
    },

    async resolveReport(viewer, reportId) {
      const staff = requireStaff(viewer);
      await data.transaction(async (tx) => {
        if (!(await tx.community.resolveReport(reportId, staff.email))) throw notFound('Report not found, or already dealt with');
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'community.report.dismiss',
          target: reportId,
          oldValue: null,
          newValue: null,
        });
      });
    },

    async suspend(viewer, memberId, suspended) {
      const staff = requireStaff(viewer);
      await data.transaction(async (tx) => {
        const member = await tx.members.findAccount({ id: memberId });
        if (!member) throw notFound('Member not found');
        await tx.members.setCommunitySuspended(member.id, suspended ? new Date() : null);
        await tx.audit.record({
          actorEmail: staff.email,
          action: suspended ? 'community.suspend' : 'community.unsuspend',
          target: member.email,
          oldValue: member.communitySuspendedAt !== null,
          newValue: suspended,
        });
      });
    },
  };
}
