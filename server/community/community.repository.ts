import { and, asc, count, desc, eq, getTableColumns, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { SEARCH_WINDOW } from '../../common/limits.ts';
import type { Tier } from '../../common/tiers.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { communityCounts, communityLikes, communityPosts, communityReplies, communityReports, members } from '../../db/schema.ts';

// Every list here is one page read in the order of an index (db/schema.ts names one per order), and
// continues after the key of the last row shown (server/lists/keyset.ts). Timestamps in keys are
// PostgreSQL's own text (`created_at::text`), so no microsecond is lost between two pages.

const { search: _search, ...postColumns } = getTableColumns(communityPosts);
const POST = { ...postColumns, createdKey: sql<string>`${communityPosts.createdAt}::text` };
const REPLY = { ...getTableColumns(communityReplies), createdKey: sql<string>`${communityReplies.createdAt}::text` };

export type PostRow = Omit<typeof communityPosts.$inferSelect, 'search'> & { createdKey: string };
export type ReplyRow = typeof communityReplies.$inferSelect & { createdKey: string };
type Space = PostRow['space'];

/** Where a page of posts in newest order starts: after this post. */
export interface NewestKey {
  createdAt: string;
  id: string;
}
/** Where a page of the most liked posts starts. */
export interface TopKey extends NewestKey {
  likes: number;
  replies: number;
}
/** Where a page of search results starts: after this rank (then id). */
export interface RankKey {
  rank: number;
  id: string;
}

const visibleIn = (space: Space) => and(eq(communityPosts.space, space), isNull(communityPosts.hiddenAt));
const olderThan = (key: NewestKey | undefined) =>
  key ? sql`(${communityPosts.createdAt}, ${communityPosts.id}) < (${key.createdAt}::timestamptz, ${key.id})` : undefined;
/** Rows read by id, in the order of `ids` (those gone meanwhile left out). */
function inOrderOf<R extends { id: string }>(ids: string[], rows: R[]): R[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The words typed, as PostgreSQL's web-search syntax ("quoted phrases", -excluded, or). */
const matching = (words: string) => sql`websearch_to_tsquery('english', ${words})`;

export function createCommunityRepository(db: DatabaseOrTransaction) {
  return {
    /** Pinned discussions of a space, most recently pinned first (a handful: they head the first page). */
    async pinned(space: Space, limit: number): Promise<PostRow[]> {
      return db
        .select(POST)
        .from(communityPosts)
        .where(and(visibleIn(space), isNotNull(communityPosts.pinnedAt)))
        .orderBy(desc(communityPosts.pinnedAt))
        .limit(limit);
    },

    /** How many visible discussions of a space are pinned. */
    async countPinned(space: Space): Promise<number> {
      const [row] = await db
        .select({ value: count() })
        .from(communityPosts)
        .where(and(visibleIn(space), isNotNull(communityPosts.pinnedAt)));
      return row?.value ?? 0;
    },

    /** Visible, unpinned discussions of a space, newest first, after `before`. */
    async newest(space: Space, limit: number, before?: NewestKey): Promise<PostRow[]> {
      return db
        .select(POST)
        .from(communityPosts)
        .where(and(visibleIn(space), isNull(communityPosts.pinnedAt), olderThan(before)))
        .orderBy(desc(communityPosts.createdAt), desc(communityPosts.id))
        .limit(limit);
    },

    /** Visible discussions of a space, the most liked, then most discussed, then newest first. */
    async top(space: Space, limit: number, before?: TopKey): Promise<PostRow[]> {
      const after = before
        ? sql`(${communityPosts.likesCount}, ${communityPosts.repliesCount}, ${communityPosts.createdAt}, ${communityPosts.id}) < (${before.likes}, ${before.replies}, ${before.createdAt}::timestamptz, ${before.id})`
        : undefined;
      return db
        .select(POST)
        .from(communityPosts)
        .where(and(visibleIn(space), after))
        .orderBy(
          desc(communityPosts.likesCount),
          desc(communityPosts.repliesCount),
          desc(communityPosts.createdAt),
          desc(communityPosts.id),
        )
        .limit(limit);
    },

    /**
     * Whether the words match few discussions (under `few`), read by counting at most that many:
     * a rare word is then found through the GIN index, a common one along the newest-first index,
     * where matches are dense and a page is found after a few rows, whichever the planner guesses.
     */
    async matchesFew(words: string, few = SEARCH_WINDOW): Promise<boolean> {
      const [row] = await db
        .select({ value: sql<number>`count(*)::int` })
        .from(sql`(select 1 from ${communityPosts} where ${communityPosts.search} @@ ${matching(words)} limit ${few}) as probe`);
      return (row?.value ?? 0) < few;
    },

    /**
     * Visible discussions of a space matching the words, best match first, within a window of the
     * newest `SEARCH_WINDOW` matches older than `position.window` (all of them when the words are
     * rare): ranking every match of a common word would read tens of thousands of rows for a page of
     * twenty. A page continues after `position.rank`/`id`; the next window starts after `edge`, the
     * oldest candidate of this one, so every match can be reached by paging on.
     *
     * The first window (no `position.window`) also counts the matches, up to `SEARCH_WINDOW` and one
     * more (`matches`, what countVisible answers), from the same reading: its candidates are the
     * newest matches, which the count reads anyway, so the discussions are read once, not twice, and
     * the planner reads a rare word through the full-text index, a common one along the newest-first
     * order, as it does for the count. Later windows are told whether the words are rare (`rare`).
     */
    async search(
      space: Space,
      words: string,
      limit: number,
      position: { window?: NewestKey; after?: RankKey; rare: boolean },
    ): Promise<{ rows: (PostRow & { rank: number })[]; windowFull: boolean; edge: NewestKey | null; matches: number | null }> {
      const query = matching(words);
      const found = sql`select ${communityPosts.id} as id, ${communityPosts.createdAt} as created_at,
          ts_rank_cd(${communityPosts.search}, ${query})::float8 as rank
        from ${communityPosts}
        where ${visibleIn(space)} and ${communityPosts.search} @@ ${query} ${position.window ? sql`and ${olderThan(position.window)}` : sql``}`;
      const newestFirst = sql`order by created_at desc, id desc`;
      const candidates = !position.window
        ? sql`with matched as (${found} ${newestFirst} limit ${SEARCH_WINDOW + 1}), candidates as (select * from matched ${newestFirst} limit ${SEARCH_WINDOW})`
        : position.rare
          ? // A rare word's matches are read through the GIN index first (materialized), then ordered.
            sql`with matched as materialized (${found}), candidates as (select * from matched ${newestFirst} limit ${SEARCH_WINDOW})`
          : sql`with candidates as (${found} ${newestFirst} limit ${SEARCH_WINDOW})`;
      const matches = !position.window ? sql`(select count(*) from matched)::int` : sql`null::int`;
      // The window's size and edge (its oldest candidate, one timestamp written out, not a thousand),
      // and the page in it, from one reading of the candidates (a CTE used twice is made once): each
      // reading ranks up to SEARCH_WINDOW matches.
      const result = (await db.execute(
        sql`${candidates}, window_summary as (select ${matches} as matches, (select count(*) from candidates)::int as size,
            (select created_at::text || ' ' || id from candidates order by created_at, id limit 1) as edge)
          select window_summary.matches, window_summary.size, window_summary.edge, page.id, page.rank from window_summary
          left join lateral (select id, rank from candidates
            ${position.after ? sql`where (rank, id) < (${position.after.rank}::float8, ${position.after.id})` : sql``}
            order by rank desc, id desc limit ${limit}) as page on true`,
      )) as unknown as { rows: { matches: number | null; size: number; edge: string | null; id: string | null; rank: number | null }[] };
      const { matches: counted = null, size = 0, edge = null } = result.rows[0] ?? {};
      const ranked = { rows: result.rows.filter((row): row is typeof row & { id: string; rank: number } => row.id !== null) };
      const ids = ranked.rows.map((row) => row.id);
      const posts = inOrderOf(
        ids,
        ids.length === 0 ? [] : await db.select(POST).from(communityPosts).where(inArray(communityPosts.id, ids)),
      );
      const rankOf = new Map(ranked.rows.map((row) => [row.id, Number(row.rank)]));
      const rows = posts.map((post) => ({ ...post, rank: rankOf.get(post.id) ?? 0 }));
      const [edgeTime, edgeId] = edge ? [edge.slice(0, edge.lastIndexOf(' ')), edge.slice(edge.lastIndexOf(' ') + 1)] : [];
      return {
        rows,
        windowFull: size >= SEARCH_WINDOW,
        edge: edgeTime && edgeId ? { createdAt: edgeTime, id: edgeId } : null,
        matches: counted === null ? null : Number(counted),
      };
    },

    /**
     * Visible discussions of a space: the count kept with the rows (migration 0014). Those matching
     * words are counted up to `cap` (one more means "more than cap"): a common word matches tens of
     * thousands, and nobody reads that far.
     */
    async countVisible(space: Space, words?: string, cap = 1_000): Promise<number> {
      if (!words) {
        const [row] = await db.select({ value: communityCounts.discussions }).from(communityCounts).where(eq(communityCounts.space, space));
        return row?.value ?? 0;
      }
      // In the newest-first order, so a common word is counted along that index and stops at the cap
      // (the full-text index would first collect every match: 40,000 for "open house" at scale);
      // the planner reads a rare word through the full-text index still.
      const found = db
        .select({ one: sql`1` })
        .from(communityPosts)
        .where(and(visibleIn(space), sql`${communityPosts.search} @@ ${matching(words)}`))
        .orderBy(desc(communityPosts.createdAt), desc(communityPosts.id))
        .limit(cap + 1)
        .as('found');
      const [row] = await db.select({ value: count() }).from(found);
      return row?.value ?? 0;
    },

    /** A member's own visible discussions, newest first. */
    async byAuthor(memberId: string, limit: number): Promise<PostRow[]> {
      return db
        .select(POST)
        .from(communityPosts)
        .where(and(eq(communityPosts.authorId, memberId), isNull(communityPosts.hiddenAt)))
        .orderBy(desc(communityPosts.createdAt))
        .limit(limit);
    },

    /** Everything a member wrote or liked, oldest first, a page at a time (the export of their own data). */
    async writtenBy(memberId: string, limit: number, after?: NewestKey) {
      return db
        .select(POST)
        .from(communityPosts)
        .where(
          and(
            eq(communityPosts.authorId, memberId),
            after ? sql`(${communityPosts.createdAt}, ${communityPosts.id}) > (${after.createdAt}::timestamptz, ${after.id})` : undefined,
          ),
        )
        .orderBy(asc(communityPosts.createdAt), asc(communityPosts.id))
        .limit(limit);
    },

    async repliedBy(memberId: string, limit: number, after?: NewestKey) {
      return db
        .select(REPLY)
        .from(communityReplies)
        .where(
          and(
            eq(communityReplies.authorId, memberId),
            after
              ? sql`(${communityReplies.createdAt}, ${communityReplies.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(asc(communityReplies.createdAt), asc(communityReplies.id))
        .limit(limit);
    },

    async likedBy(memberId: string, limit: number, afterPostId?: string) {
      return db
        .select({ postId: communityLikes.postId, createdAt: communityLikes.createdAt })
        .from(communityLikes)
        .where(and(eq(communityLikes.memberId, memberId), afterPostId ? sql`${communityLikes.postId} > ${afterPostId}` : undefined))
        .orderBy(asc(communityLikes.postId))
        .limit(limit);
    },

    /** Every discussion, hidden ones and both spaces included, newest first (staff); optionally matching words. */
    async forStaff(limit: number, before?: NewestKey, words?: string, rare = false): Promise<PostRow[]> {
      const where = and(olderThan(before), words ? sql`${communityPosts.search} @@ ${matching(words)}` : undefined);
      if (!rare)
        return db
          .select(POST)
          .from(communityPosts)
          .where(where)
          .orderBy(desc(communityPosts.createdAt), desc(communityPosts.id))
          .limit(limit);
      // A rare word: its few matches come from the GIN index (materialized), then are ordered, instead
      // of a walk along the newest-first index that finds nothing for a word that is not there.
      const matched = (await db.execute(
        sql`with matched as materialized (select ${communityPosts.id} as id, ${communityPosts.createdAt} as created_at from ${communityPosts} where ${where})
          select id from matched order by created_at desc, id desc limit ${limit}`,
      )) as unknown as { rows: { id: string }[] };
      return inOrderOf(
        matched.rows.map((row) => row.id),
        matched.rows.length === 0
          ? []
          : await db
              .select(POST)
              .from(communityPosts)
              .where(
                inArray(
                  communityPosts.id,
                  matched.rows.map((row) => row.id),
                ),
              ),
      );
    },

    async findPost(id: string): Promise<PostRow | null> {
      const [row] = await db.select(POST).from(communityPosts).where(eq(communityPosts.id, id));
      return row ?? null;
    },

    /** A post's visible replies, oldest first, after `after`. */
    async replies(postId: string, limit: number, after?: NewestKey): Promise<ReplyRow[]> {
      return db
        .select(REPLY)
        .from(communityReplies)
        .where(
          and(
            eq(communityReplies.postId, postId),
            isNull(communityReplies.hiddenAt),
            after
              ? sql`(${communityReplies.createdAt}, ${communityReplies.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(asc(communityReplies.createdAt), asc(communityReplies.id))
        .limit(limit);
    },

    async findReply(id: string): Promise<ReplyRow | null> {
      const [row] = await db.select(REPLY).from(communityReplies).where(eq(communityReplies.id, id));
      return row ?? null;
    },

    async createPost(values: {
      authorId: string;
      userName: string;
      authorTier: Tier;
      space: Space;
      title: string;
      content: string;
    }): Promise<PostRow> {
      const [row] = await db.insert(communityPosts).values(values).returning(POST);
      return row!;
    },

    async updatePost(
      id: string,
      values: Partial<Pick<PostRow, 'title' | 'content' | 'editedAt' | 'pinnedAt' | 'lockedAt' | 'hiddenAt'>>,
    ): Promise<PostRow | null> {
      const [row] = await db.update(communityPosts).set(values).where(eq(communityPosts.id, id)).returning(POST);
      return row ?? null;
    },

    async deletePost(id: string): Promise<void> {
      await db.delete(communityPosts).where(eq(communityPosts.id, id));
    },

    async createReply(values: { postId: string; authorId: string; authorName: string; authorTier: Tier; body: string }): Promise<ReplyRow> {
      const [row] = await db.insert(communityReplies).values(values).returning(REPLY);
      return row!;
    },

    async updateReply(id: string, values: Partial<Pick<ReplyRow, 'body' | 'editedAt' | 'hiddenAt'>>): Promise<ReplyRow | null> {
      const [row] = await db.update(communityReplies).set(values).where(eq(communityReplies.id, id)).returning(REPLY);
      return row ?? null;
    },

    async deleteReply(id: string): Promise<void> {
      await db.delete(communityReplies).where(eq(communityReplies.id, id));
    },

    /**
     * Holds the post until the transaction ends, so likes and replies changing at once are counted
     * one after the other (each recount then sees the other's row).
     */
    async lockPost(postId: string): Promise<void> {
      await db.select({ id: communityPosts.id }).from(communityPosts).where(eq(communityPosts.id, postId)).for('update');
    },

    /** One post or reply of this member at a time: a double submit finds the first one already there. */
    /** Serialises pinning in a space, so two moderators pinning at once cannot pass the cap together. */
    async lockPins(space: Space): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`community-pins:${space}`}))`);
    },

    async lockAuthor(memberId: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`community:${memberId}`}))`);
    },

    /** Sets the post's counts from its likes and visible replies (inside the transaction that changed them). */
    async recount(postId: string): Promise<PostRow | null> {
      const [row] = await db
        .update(communityPosts)
        .set({
          likesCount: sql`(select count(*) from ${communityLikes} where ${communityLikes.postId} = ${postId})::int`,
          repliesCount: sql`(select count(*) from ${communityReplies} where ${communityReplies.postId} = ${postId} and ${communityReplies.hiddenAt} is null)::int`,
        })
        .where(eq(communityPosts.id, postId))
        .returning(POST);
      return row ?? null;
    },

    /** Adds or removes the member's like; either is harmless when already so. */
    /** Likes or unlikes; answers whether anything changed (a like given twice counts once). */
    async setLike(postId: string, memberId: string, liked: boolean): Promise<boolean> {
      const changed = liked
        ? await db.insert(communityLikes).values({ postId, memberId }).onConflictDoNothing().returning({ postId: communityLikes.postId })
        : await db
            .delete(communityLikes)
            .where(and(eq(communityLikes.postId, postId), eq(communityLikes.memberId, memberId)))
            .returning({ postId: communityLikes.postId });
      return changed.length > 0;
    },

    /** The members who replied lately in a discussion (visible replies, the latest first, each once). */
    async recentRepliers(postId: string, limit: number) {
      const latest = db
        .select({ authorId: communityReplies.authorId, at: sql`max(${communityReplies.createdAt})`.as('at') })
        .from(communityReplies)
        .where(and(eq(communityReplies.postId, postId), isNull(communityReplies.hiddenAt), isNotNull(communityReplies.authorId)))
        .groupBy(communityReplies.authorId)
        .as('latest');
      return db
        .select({
          id: members.id,
          name: members.name,
          email: members.email,
          emailOptOut: members.emailOptOut,
          membershipTier: members.membershipTier,
        })
        .from(latest)
        .innerJoin(members, eq(members.id, latest.authorId))
        .orderBy(desc(latest.at))
        .limit(limit);
    },

    /** Which of these posts the member liked (the page shown, never every like they ever gave). */
    async likedAmong(memberId: string, postIds: string[]): Promise<Set<string>> {
      if (postIds.length === 0) return new Set();
      const rows = await db
        .select({ postId: communityLikes.postId })
        .from(communityLikes)
        .where(and(eq(communityLikes.memberId, memberId), inArray(communityLikes.postId, postIds)));
      return new Set(rows.map((row) => row.postId));
    },

    /** The member's latest post and reply (to refuse the same text sent again). */
    async latestPostBy(memberId: string): Promise<PostRow | null> {
      const [row] = await db
        .select(POST)
        .from(communityPosts)
        .where(eq(communityPosts.authorId, memberId))
        .orderBy(desc(communityPosts.createdAt))
        .limit(1);
      return row ?? null;
    },

    async latestReplyBy(memberId: string): Promise<ReplyRow | null> {
      const [row] = await db
        .select(REPLY)
        .from(communityReplies)
        .where(eq(communityReplies.authorId, memberId))
        .orderBy(desc(communityReplies.createdAt))
        .limit(1);
      return row ?? null;
    },

    /** One report per member and item; false when the member had reported it already. */
    async createReport(values: { postId: string; replyId: string | null; reporterId: string; reason: string }): Promise<boolean> {
      const rows = await db.insert(communityReports).values(values).onConflictDoNothing().returning({ id: communityReports.id });
      return rows.length > 0;
    },

    /** Reports not yet dealt with, oldest first, after `after`, with what they are about. */
    async openReports(limit: number, after?: NewestKey) {
      const reporter = alias(members, 'reporter');
      const author = alias(members, 'author');
      const { search: _postSearch, ...postFields } = getTableColumns(communityPosts);
      return db
        .select({
          report: communityReports,
          reportKey: sql<string>`${communityReports.createdAt}::text`,
          post: postFields,
          reply: communityReplies,
          reporterName: reporter.name,
          authorSuspendedAt: author.communitySuspendedAt,
        })
        .from(communityReports)
        .innerJoin(communityPosts, eq(communityPosts.id, communityReports.postId))
        .leftJoin(communityReplies, eq(communityReplies.id, communityReports.replyId))
        .innerJoin(reporter, eq(reporter.id, communityReports.reporterId))
        .leftJoin(author, eq(author.id, sql`coalesce(${communityReplies.authorId}, ${communityPosts.authorId})`))
        .where(
          and(
            isNull(communityReports.resolvedAt),
            after
              ? sql`(${communityReports.createdAt}, ${communityReports.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(asc(communityReports.createdAt), asc(communityReports.id))
        .limit(limit);
    },

    async resolveReport(id: string, by: string): Promise<boolean> {
      const rows = await db
        .update(communityReports)
        .set({ resolvedAt: new Date(), resolvedBy: by })
        .where(and(eq(communityReports.id, id), isNull(communityReports.resolvedAt)))
        .returning({ id: communityReports.id });
      return rows.length > 0;
    },

    /** Closes every open report about a post (and its replies) or one reply, once staff acted on it. */
    async resolveReportsAbout(target: { postId: string } | { replyId: string }, by: string): Promise<void> {
      const about = 'postId' in target ? eq(communityReports.postId, target.postId) : eq(communityReports.replyId, target.replyId);
      await db
        .update(communityReports)
        .set({ resolvedAt: new Date(), resolvedBy: by })
        .where(and(about, isNull(communityReports.resolvedAt)));
    },

    /** Visible replies by others to the member's visible posts (in the Gold Lounge too, if `withGold`), newest first. */
    async repliesTo(memberId: string, withGold: boolean, limit: number, before?: NewestKey) {
      return db
        .select({ reply: REPLY, postTitle: communityPosts.title })
        .from(communityReplies)
        .innerJoin(communityPosts, eq(communityPosts.id, communityReplies.postId))
        .where(
          and(
            // On community_replies_to_author_idx, newest first: a page of replies, however many the member had.
            eq(communityReplies.postAuthorId, memberId),
            isNull(communityPosts.hiddenAt),
            withGold ? undefined : eq(communityPosts.space, 'general'),
            isNull(communityReplies.hiddenAt),
            or(isNull(communityReplies.authorId), ne(communityReplies.authorId, memberId)),
            before
              ? sql`(${communityReplies.createdAt}, ${communityReplies.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(communityReplies.createdAt), desc(communityReplies.id))
        .limit(limit);
    },

    async openReportCount(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(communityReports).where(isNull(communityReports.resolvedAt));
      return row?.value ?? 0;
    },
  };
}
