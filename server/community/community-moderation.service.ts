import { z } from 'zod';
import { POST_NOT_FOUND, REPLY_NOT_FOUND, type CommunityModerationService } from '../../common/community.contract.ts';
import { conflict, notFound } from '../../common/errors.ts';
import { PAGE_SIZE, SHOWN } from '../../common/limits.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { DataAccess } from '../repositories.ts';
import { excerpt } from './community-views.ts';

const ReportCursor = z.tuple([TimestampKey, z.uuid()]);
const DiscussionCursor = z.tuple([TimestampKey, z.string().min(1).max(100)]);

/** Staff's side of the community: the report queue, every discussion, and moderation, each change audited. */
export function createCommunityModerationService(data: DataAccess): CommunityModerationService {
  return {
    async reports(viewer, query) {
      requireStaffArea(viewer, 'community');
      const after = query.after ? decodeCursor(query.after, ReportCursor) : undefined;
      const rows = await data.community.openReports(PAGE_SIZE.moderation + 1, after && { createdAt: after[0], id: after[1] });
      return pageOf(
        rows,
        PAGE_SIZE.moderation,
        (row) => [row.reportKey, row.report.id],
        ({ report, post, reply, reporterName, authorSuspendedAt }) => ({
          id: report.id,
          post_id: post.id,
          post_title: post.title,
          reply_id: reply?.id ?? null,
          // Enough to judge; the discussion itself is a click away (a page of long posts would weigh megabytes).
          text: excerpt(reply ? reply.body : post.content, SHOWN.reportedText),
          author_name: reply ? reply.authorName : post.userName,
          author_id: (reply ? reply.authorId : post.authorId) ?? null,
          author_suspended: authorSuspendedAt !== null,
          reporter_name: reporterName,
          reason: report.reason,
          created_at: report.createdAt.toISOString(),
          hidden: (reply ? reply.hiddenAt : post.hiddenAt) !== null,
          pinned: post.pinnedAt !== null,
          locked: post.lockedAt !== null,
        }),
      );
    },

    async discussions(viewer, query) {
      requireStaffArea(viewer, 'community');
      const before = query.before ? decodeCursor(query.before, DiscussionCursor) : undefined;
      const words = query.search || undefined;
      const rows = await data.community.forStaff(
        PAGE_SIZE.moderation + 1,
        before && { createdAt: before[0], id: before[1] },
        words,
        words !== undefined && (await data.community.matchesFew(words)),
      );
      return pageOf(
        rows,
        PAGE_SIZE.moderation,
        (row) => [row.createdKey, row.id],
        (row) => ({
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
        }),
      );
    },

    async moderatePost(viewer, postId, action) {
      const staff = requireStaffArea(viewer, 'community');
      await data.transaction(async (tx) => {
        const post = await tx.community.findPost(postId);
        if (!post) throw notFound(POST_NOT_FOUND);
        const now = new Date();
        const changes = {
          hide: { hiddenAt: now },
          unhide: { hiddenAt: null },
          pin: { pinnedAt: now },
          unpin: { pinnedAt: null },
          lock: { lockedAt: now },
          unlock: { lockedAt: null },
        } as const;
        let change: (typeof changes)[keyof typeof changes] | { hiddenAt: null; pinnedAt: null } | undefined =
          action === 'delete' ? undefined : changes[action];
        // Pinned discussions head the first page, all of them: a handful, or they would push the feed
        // away. A hidden pinned post counts again when it comes back, so it is checked like a pin.
        const pinsOneMore =
          (action === 'pin' && !post.pinnedAt) || (action === 'unhide' && post.pinnedAt !== null && post.hiddenAt !== null);
        if (pinsOneMore) {
          await tx.community.lockPins(post.space);
          if ((await tx.community.countPinned(post.space)) >= PAGE_SIZE.communityPinned) {
            if (action === 'pin')
              throw conflict(`At most ${PAGE_SIZE.communityPinned} discussions can be pinned in a space. Unpin one first.`);
            // Back, but no longer pinned: the space has its pins already.
            change = { hiddenAt: null, pinnedAt: null };
          }
        }
        if (change) await tx.community.updatePost(post.id, change);
        else await tx.community.deletePost(post.id);
        // Hiding or deleting deals with what was reported about the post.
        if (action === 'hide' || action === 'delete') await tx.community.resolveReportsAbout({ postId: post.id }, staff.email);
        await tx.audit.record({
          actorEmail: staff.email,
          action: `community.post.${action}`,
          target: post.title,
          oldValue: post.id,
          newValue: post.userName,
          subjectMemberId: post.authorId,
        });
      });
    },

    async moderateReply(viewer, replyId, action) {
      const staff = requireStaffArea(viewer, 'community');
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
          subjectMemberId: reply.authorId,
        });
      });
    },

    async resolveReport(viewer, reportId) {
      const staff = requireStaffArea(viewer, 'community');
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
      const staff = requireStaffArea(viewer, 'community');
      await data.transaction(async (tx) => {
        const member = await tx.members.findAccount({ id: memberId });
        if (!member) throw notFound('Member not found');
        await tx.members.setCommunitySuspended(member.id, suspended ? new Date() : null);
        await tx.audit.record({
          actorEmail: staff.email,
          action: suspended ? 'community.suspend' : 'community.unsuspend',
          target: member.email,
          subjectMemberId: member.id,
          oldValue: member.communitySuspendedAt !== null,
          newValue: suspended,
        });
      });
    },
  };
}
