import { z } from 'zod';
import {
  GOLD_SPACE_ONLY,
  POST_NOT_FOUND,
  REPLY_NOT_FOUND,
  THREAD_LOCKED,
  UPGRADE_TO_PARTICIPATE,
  type CommunityService,
  type CommunitySpace,
} from '../../common/community.contract.ts';
import { conflict, forbidden, notFound } from '../../common/errors.ts';
import { COMMUNITY_RATES, DASHBOARD_MAX_ITEMS, PAGE_SIZE, REPEAT_WINDOW_MS, SEARCH_WINDOW } from '../../common/limits.ts';
import { type SignedInMember, type Viewer } from '../../common/viewer.ts';
import {
  editRefusal,
  isAuthorOf,
  mayLike,
  mayReadGoldLounge,
  mayReadPostsIn,
  mayReadPreviewInFull,
  postingRefusal,
  requireMember,
} from '../../common/policies.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import { CountKey, decodeCursor, encodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { CommunityNotices } from './community-notices.ts';
import type { DataAccess } from '../repositories.ts';
import type { PostRow } from './community.repository.ts';
import { excerpt, postView, previewPost, replyView, rightsOf } from './community-views.ts';

// The sort key of each order, as a cursor carries it (server/lists/keyset.ts).
const Id = z.string().min(1).max(100);
const NewestCursor = z.tuple([TimestampKey, Id]);
const ReplyCursor = z.tuple([TimestampKey, z.uuid()]);
const TopCursor = z.tuple([CountKey, CountKey, TimestampKey, Id]);
const SearchCursor = z.tuple([
  z.union([TimestampKey, z.literal('')]),
  z.string().max(100),
  z.number().min(0).max(1e6),
  z.string().max(100),
]);
const newestKey = (row: { createdKey: string; id: string }) => [row.createdKey, row.id] as const;
const topKey = (row: PostRow) => [row.likesCount, row.repliesCount, row.createdKey, row.id] as const;
const asNewest = ([createdAt, id]: z.output<typeof NewestCursor>) => ({ createdAt, id });

export function createCommunityService(deps: {
  data: DataAccess;
  limiter: AttemptLimiter;
  notifier: Notifier;
  notices: CommunityNotices;
}): CommunityService {
  const { data, limiter, notifier, notices } = deps;

  /** The post if this viewer may read it: never a hidden one, the Gold space for Gold members only. */
  async function readablePost(viewer: Viewer, postId: string): Promise<PostRow> {
    const post = await data.community.findPost(postId);
    if (!post || post.hiddenAt) throw notFound(POST_NOT_FOUND);
    if (!mayReadPostsIn(viewer, post.space)) throw forbidden(GOLD_SPACE_ONLY);
    return post;
  }

  /** The signed-in member, if they may take part where the post is (or is to be). */
  function participant(viewer: Viewer, space: CommunitySpace): SignedInMember {
    const member = requireMember(viewer);
    const reason = postingRefusal(viewer, space);
    if (reason) throw forbidden(reason);
    return member;
  }

  /** The signed-in member, if the post or reply is theirs and they may still post where it is. */
  function editor(viewer: Viewer, item: { authorId: string | null }, space: CommunitySpace, what: string): SignedInMember {
    const member = requireMember(viewer);
    const reason = editRefusal(viewer, item, space, what);
    if (reason) throw forbidden(reason);
    return member;
  }

  /** The signed-in member, if the post or reply is theirs (to delete it). */
  function author(viewer: Viewer, item: { authorId: string | null }, what: string): SignedInMember {
    const member = requireMember(viewer);
    if (!isAuthorOf(viewer, item)) throw forbidden(`You can only change your own ${what}.`);
    return member;
  }

  const likedOf = (viewer: Viewer, rows: PostRow[]) =>
    viewer.member
      ? data.community.likedAmong(
          viewer.member.id,
          rows.map((row) => row.id),
        )
      : Promise.resolve(new Set<string>());

  /**
   * One page of a space in the order asked: the best matches, the most liked, or the newest (pinned
   * first). A search is told how many discussions the words match (counted up to SEARCH_WINDOW and
   * one more), which decides how it reads them.
   */
  async function feedPage(
    space: CommunitySpace,
    sort: 'newest' | 'top',
    search: { words: string; matches: () => Promise<number> } | undefined,
    before: string | undefined,
  ): Promise<{ items: PostRow[]; next_cursor: string | null; matches?: number }> {
    const size = PAGE_SIZE.communityFeed;
    if (search) {
      const { words } = search;
      // The cursor holds the window (after its newest-first edge; '' for the first) and the place in it.
      const key = before ? decodeCursor(before, SearchCursor) : undefined;
      const window = key?.[0] ? { createdAt: key[0], id: key[1] } : undefined;
      const after = key?.[3] ? { rank: key[2], id: key[3] } : undefined;
      // The first window counts the matches as it reads them; a later one is told whether they are rare.
      const rare = window ? (await search.matches()) < SEARCH_WINDOW : false;
      const found = await data.community.search(space, words, size + 1, { window, after, rare });
      const items = found.rows.slice(0, size);
      const last = items.at(-1);
      const next =
        found.rows.length > size && last
          ? [window?.createdAt ?? '', window?.id ?? '', last.rank, last.id]
          : found.windowFull && found.edge
            ? [found.edge.createdAt, found.edge.id, 0, '']
            : null;
      return { items, next_cursor: next && encodeCursor(next), ...(found.matches !== null && { matches: found.matches }) };
    }
    if (sort === 'top') {
      const key = before ? decodeCursor(before, TopCursor) : undefined;
      const rows = await data.community.top(space, size + 1, key && { likes: key[0], replies: key[1], createdAt: key[2], id: key[3] });
      return pageOf(rows, size, topKey, (row) => row);
    }
    const key = before ? decodeCursor(before, NewestCursor) : undefined;
    const [pinned, rows] = await Promise.all([
      key ? [] : data.community.pinned(space, PAGE_SIZE.communityPinned),
      data.community.newest(space, size + 1, key && asNewest(key)),
    ]);
    const page = pageOf(rows, size, newestKey, (row) => row);
    return { items: [...pinned, ...page.items], next_cursor: page.next_cursor };
  }

  return {
    // SPEC 6: members read every post they may; a visitor gets the full text of the first two only,
    // so the blur on the page cannot be lifted by reading the page source. The Gold Lounge is not
    // part of the preview: Gold members read it in their feed.
    async preview(viewer, query) {
      const page = await feedPage('general', 'newest', undefined, query.before);
      const firstPage = query.before === undefined;
      return {
        items: page.items.map((row, index) => previewPost(row, mayReadPreviewInFull(viewer, { firstPage, index }))),
        next_cursor: page.next_cursor,
      };
    },

    count: () => data.community.countVisible('general'),

    async feed(viewer, query) {
      const member = requireMember(viewer);
      if (!mayReadPostsIn(viewer, query.space)) throw forbidden(GOLD_SPACE_ONLY);
      const words = query.q || undefined;
      // Searched, the first window counts its matches as it reads them (one reading of the
      // discussions); a later window counts them first, which also tells it whether they are rare.
      let counting: Promise<number> | undefined;
      const counted = () => (counting ??= data.community.countVisible(query.space, words, SEARCH_WINDOW));
      const page = words
        ? await feedPage(query.space, query.sort, { words, matches: counted }, query.before)
        : await feedPage(query.space, query.sort, undefined, query.before);
      const total = page.matches ?? (await counted());
      const liked = await likedOf(viewer, page.items);
      return {
        posts: page.items.map((row) => postView(row, member.id, liked)),
        next_cursor: page.next_cursor,
        total,
        sort: query.sort,
        space: query.space,
        q: words ?? null,
        rights: rightsOf(viewer, query.space),
      };
    },

    async post(viewer, postId, query = {}) {
      const member = requireMember(viewer);
      const post = await readablePost(viewer, postId);
      const after = query.after ? asNewest(decodeCursor(query.after, ReplyCursor)) : undefined;
      const [replies, liked] = await Promise.all([
        data.community.replies(post.id, PAGE_SIZE.communityReplies + 1, after),
        likedOf(viewer, [post]),
      ]);
      const page = pageOf(replies, PAGE_SIZE.communityReplies, newestKey, (reply) => replyView(reply, member.id));
      return {
        post: postView(post, member.id, liked),
        replies: page.items,
        next_cursor: page.next_cursor,
        rights: rightsOf(viewer, post.space),
      };
    },

    async createPost(viewer, input) {
      const member = participant(viewer, input.space);
      await limiter.check('community-post', member.id, COMMUNITY_RATES.post);
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
        const created = await tx.community.createPost({
          authorId: member.id,
          userName: member.name,
          authorTier: member.membershipTier,
          space: input.space,
          title: input.title,
          content: input.body,
        });
        await notices.mentions(tx, created, { id: created.id, authorId: member.id, authorName: member.name, text: input.body });
        return created;
      });
      notifier.nudge();
      return postView(row, member.id, new Set());
    },

    async editPost(viewer, postId, input) {
      const post = await readablePost(viewer, postId);
      const member = editor(viewer, post, post.space, 'posts');
      const row = await data.community.updatePost(post.id, { title: input.title, content: input.body, editedAt: new Date() });
      if (!row) throw notFound(POST_NOT_FOUND);
      return postView(row, member.id, await likedOf(viewer, [row]));
    },

    async deletePost(viewer, postId) {
      const post = await readablePost(viewer, postId);
      author(viewer, post, 'posts');
      await data.community.deletePost(post.id);
    },

    async reply(viewer, postId, input) {
      const post = await readablePost(viewer, postId);
      const member = participant(viewer, post.space);
      if (post.lockedAt) throw conflict(THREAD_LOCKED);
      await limiter.check('community-reply', member.id, COMMUNITY_RATES.reply);
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
        await notices.replied(tx, post, created);
        return created;
      });
      notifier.nudge();
      return replyView(reply, member.id);
    },

    async editReply(viewer, replyId, input) {
      const reply = await data.community.findReply(replyId);
      if (!reply || reply.hiddenAt) throw notFound(REPLY_NOT_FOUND);
      const post = await readablePost(viewer, reply.postId);
      const member = editor(viewer, reply, post.space, 'replies');
      const row = await data.community.updateReply(reply.id, { body: input.body, editedAt: new Date() });
      if (!row) throw notFound(REPLY_NOT_FOUND);
      return replyView(row, member.id);
    },

    async deleteReply(viewer, replyId) {
      const reply = await data.community.findReply(replyId);
      if (!reply || reply.hiddenAt) throw notFound(REPLY_NOT_FOUND);
      author(viewer, reply, 'replies');
      await data.transaction(async (tx) => {
        await tx.community.lockPost(reply.postId);
        await tx.community.deleteReply(reply.id);
        await tx.community.recount(reply.postId);
      });
    },

    async like(viewer, postId, liked) {
      const post = await readablePost(viewer, postId);
      const member = requireMember(viewer);
      // Liking is not posting: a suspended member may still like (readablePost kept the Gold Lounge to Gold members).
      if (!mayLike(viewer, post.space)) throw forbidden(UPGRADE_TO_PARTICIPATE);
      const counted = await data.transaction(async (tx) => {
        await tx.community.lockPost(post.id);
        const changed = await tx.community.setLike(post.id, member.id, liked);
        const recounted = await tx.community.recount(post.id);
        if (changed && liked) await notices.liked(tx, post, member, recounted?.likesCount ?? 1);
        return recounted;
      });
      notifier.nudge();
      return { liked, likes_count: counted?.likesCount ?? 0 };
    },

    async report(viewer, input) {
      const member = requireMember(viewer);
      const post = await readablePost(viewer, input.post_id);
      if (input.reply_id) {
        const reply = await data.community.findReply(input.reply_id);
        if (!reply || reply.hiddenAt || reply.postId !== post.id) throw notFound(REPLY_NOT_FOUND);
      }
      await limiter.check('community-report', member.id, COMMUNITY_RATES.report);
      await data.community.createReport({ postId: post.id, replyId: input.reply_id ?? null, reporterId: member.id, reason: input.reason });
    },

    async repliesToMe(viewer, query = {}) {
      const member = requireMember(viewer);
      const before = query.before ? asNewest(decodeCursor(query.before, ReplyCursor)) : undefined;
      // Replies in the Gold Lounge reach the member while they are Gold, and not a day longer.
      const rows = await data.community.repliesTo(member.id, mayReadGoldLounge(viewer), PAGE_SIZE.memberList + 1, before);
      return pageOf(
        rows,
        PAGE_SIZE.memberList,
        ({ reply }) => newestKey(reply),
        ({ reply, postTitle }) => ({
          reply_id: reply.id,
          post_id: reply.postId,
          post_title: postTitle,
          author_name: reply.authorName,
          excerpt: excerpt(reply.body),
          created_at: reply.createdAt.toISOString(),
        }),
      );
    },

    async myPosts(viewer) {
      const member = requireMember(viewer);
      const rows = await data.community.byAuthor(member.id, DASHBOARD_MAX_ITEMS);
      return rows.filter((row) => mayReadPostsIn(viewer, row.space)).map((row) => previewPost(row, true));
    },
  };
}
