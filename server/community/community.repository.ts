import { and, asc, count, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tier } from '../../common/tiers.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { communityLikes, communityPosts, communityReplies, communityReports, members } from '../../db/schema.ts';

export type PostRow = typeof communityPosts.$inferSelect;
export type ReplyRow = typeof communityReplies.$inferSelect;

export function createCommunityRepository(db: DatabaseOrTransaction) {
  return {
    /** Every post, hidden ones and the Gold space's included (the service decides who sees what): pinned first, then newest. */
    async list(): Promise<PostRow[]> {
      return db
        .select()
        .from(communityPosts)
        .orderBy(
          sql`${communityPosts.pinnedAt} is null`,
          desc(communityPosts.pinnedAt),
          desc(communityPosts.createdAt),
          desc(communityPosts.id),
        );
    },

    async findPost(id: string): Promise<PostRow | null> {
      const [row] = await db.select().from(communityPosts).where(eq(communityPosts.id, id));
      return row ?? null;
    },

    /** A post's replies, oldest first, hidden ones included. */
    async replies(postId: string): Promise<ReplyRow[]> {
      return db.select().from(communityReplies).where(eq(communityReplies.postId, postId)).orderBy(asc(communityReplies.createdAt));
    },

    async findReply(id: string): Promise<ReplyRow | null> {
      const [row] = await db.select().from(communityReplies).where(eq(communityReplies.id, id));
      return row ?? null;
    },

    async createPost(values: {
      authorId: string;
      userName: string;
      authorTier: Tier;
      space: PostRow['space'];
      title: string;
      content: string;
    }) {
      const [row] = await db.insert(communityPosts).values(values).returning();
      return row!;
    },

    async updatePost(
      id: string,
      values: Partial<Pick<PostRow, 'title' | 'content' | 'editedAt' | 'pinnedAt' | 'lockedAt' | 'hiddenAt'>>,
    ): Promise<PostRow | null> {
      const [row] = await db.update(communityPosts).set(values).where(eq(communityPosts.id, id)).returning();
      return row ?? null;
    },

    async deletePost(id: string): Promise<void> {
      await db.delete(communityPosts).where(eq(communityPosts.id, id));
    },

    async createReply(values: { postId: string; authorId: string; authorName: string; authorTier: Tier; body: string }) {
      const [row] = await db.insert(communityReplies).values(values).returning();
      return row!;
    },

    async updateReply(id: string, values: Partial<Pick<ReplyRow, 'body' | 'editedAt' | 'hiddenAt'>>): Promise<ReplyRow | null> {
      const [row] = await db.update(communityReplies).set(values).where(eq(communityReplies.id, id)).returning();
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
        .returning();
      return row ?? null;
    },

    /** Adds or removes the member's like; either is harmless when already so. */
    async setLike(postId: string, memberId: string, liked: boolean): Promise<void> {
      if (liked) await db.insert(communityLikes).values({ postId, memberId }).onConflictDoNothing();
      else await db.delete(communityLikes).where(and(eq(communityLikes.postId, postId), eq(communityLikes.memberId, memberId)));
    },

    async likedPostIds(memberId: string): Promise<Set<string>> {
      const rows = await db.select({ postId: communityLikes.postId }).from(communityLikes).where(eq(communityLikes.memberId, memberId));
      return new Set(rows.map((row) => row.postId));
    },

    /** The member's latest post and reply (to refuse the same text sent again). */
    async latestPostBy(memberId: string): Promise<PostRow | null> {
      const [row] = await db
        .select()
        .from(communityPosts)
        .where(eq(communityPosts.authorId, memberId))
        .orderBy(desc(communityPosts.createdAt))
        .limit(1);
      return row ?? null;
    },

    async latestReplyBy(memberId: string): Promise<ReplyRow | null> {
      const [row] = await db
        .select()
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

    /** Reports not yet dealt with, oldest first, with what they are about. */
    async openReports() {
      const reporter = alias(members, 'reporter');
      const author = alias(members, 'author');
      return db
        .select({
          report: communityReports,
          post: communityPosts,
          reply: communityReplies,
          reporterName: reporter.name,
          authorSuspendedAt: author.communitySuspendedAt,
        })
        .from(communityReports)
        .innerJoin(communityPosts, eq(communityPosts.id, communityReports.postId))
        .leftJoin(communityReplies, eq(communityReplies.id, communityReports.replyId))
        .innerJoin(reporter, eq(reporter.id, communityReports.reporterId))
        .leftJoin(author, eq(author.id, sql`coalesce(${communityReplies.authorId}, ${communityPosts.authorId})`))
        .where(isNull(communityReports.resolvedAt))
        .orderBy(asc(communityReports.createdAt))
        .limit(200);
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

    /** Visible replies by others to the member's visible posts, newest first. */
    async repliesTo(memberId: string, limit: number) {
      return db
        .select({ reply: communityReplies, postTitle: communityPosts.title })
        .from(communityReplies)
        .innerJoin(communityPosts, eq(communityPosts.id, communityReplies.postId))
        .where(
          and(
            eq(communityPosts.authorId, memberId),
            isNull(communityPosts.hiddenAt),
            isNull(communityReplies.hiddenAt),
            ne(sql`coalesce(${communityReplies.authorId}::text, '')`, memberId),
          ),
        )
        .orderBy(desc(communityReplies.createdAt))
        .limit(limit);
    },

    async openReportCount(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(communityReports).where(isNull(communityReports.resolvedAt));
      return row?.value ?? 0;
    },
  };
}
