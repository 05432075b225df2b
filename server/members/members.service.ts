import { z } from 'zod';
import type { AdminMember, MembersService } from '../../common/admin.contract.ts';
import { PAGE_SIZE, SHOWN, STREAM_BATCH } from '../../common/limits.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import { badRequest, conflict, notFound } from '../../common/errors.ts';
import { isPaidTier } from '../../common/pricing.ts';
import { requireStaffArea } from '../../common/policies.ts';
import type { SubscriptionRow } from '../billing/billing.repository.ts';
import { subscriptionView } from '../billing/billing-views.ts';
import { applyMembershipTier } from '../billing/membership-tier.ts';
import type { ServerLearningService } from '../learning/learning.service.ts';
import { AuditCursor, auditEntryView } from '../audit/audit.service.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import { deviceName } from '../sessions/device-name.ts';
import { csvRow } from '../lists/csv.ts';
import type { MemberCursor, MembersRepository } from './members.repository.ts';

const MemberListCursor = z.tuple([TimestampKey, z.uuid()]);

type MemberRow = Awaited<ReturnType<MembersRepository['search']>>[number];

const toAdminMember = (row: MemberRow, subscription: SubscriptionRow | undefined): AdminMember => ({
  id: row.id,
  name: row.name,
  email: row.email,
  membership_tier: row.tier,
  complimentary_tier: row.complimentaryTier,
  subscription: subscription ? subscriptionView(subscription) : null,
  created_at: row.createdAt.toISOString(),
});

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** The Mondays of the last `count` weeks, oldest first, as YYYY-MM-DD (the database's weeks). */
function lastWeeks(count: number, now = new Date()): string[] {
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7)));
  return Array.from({ length: count }, (_, index) => new Date(monday.getTime() - (count - 1 - index) * WEEK_MS).toISOString().slice(0, 10));
}

/** Dripped lessons an owner may choose from to open one early (the catalogue's; a course's lessons are few). */
const DRIPPED_LESSONS_LISTED = 500;

/** Opens one dripped lesson of a course to one member before its day, with the reason the activity log keeps. */
async function openLessonEarly(
  tx: Repositories,
  staff: { id: string; email: string },
  member: { id: string; email: string },
  course: { id: string; title: string },
  lessonId: string,
  reason: string,
) {
  const lesson = (await tx.courses.listLessons(course.id)).find((each) => each.id === lessonId);
  if (!lesson || (lesson.opensAfterDays === null && lesson.opensOn === null)) {
    throw badRequest(`Choose a lesson of “${course.title}” that opens on a later day.`, 'lesson_id');
  }
  const opened = await tx.courses.openLessonEarly({ memberId: member.id, lessonId: lesson.id, reason, openedById: staff.id });
  if (!opened) throw conflict(`“${lesson.title}” is already open to this member.`);
  await tx.audit.record({
    actorEmail: staff.email,
    action: 'lesson.opened_early',
    target: member.email,
    oldValue: null,
    newValue: { course: course.id, lesson: lesson.id, reason },
  });
  return {
    member_id: member.id,
    course_id: course.id,
    course_title: course.title,
    lesson_id: lesson.id,
    lesson_title: lesson.title,
    reason,
  };
}

export function createMembersService(data: DataAccess, learning: Pick<ServerLearningService, 'recordOf'>): MembersService {
  return {
    async detail(viewer, memberId, query = {}) {
      requireStaffArea(viewer, 'members');
      const row = await data.members.listed(memberId);
      if (!row) throw notFound('Member not found');
      const activityBefore = query.activity ? decodeCursor(query.activity, AuditCursor)[0] : undefined;
      const [subscriptions, record, signIns, activityRows] = await Promise.all([
        data.billing.currentOf([row.id]),
        learning.recordOf(row.id, { courses: query.courses, certificates: query.certificates }),
        data.members.signIns(row.id, SHOWN.memberSignIns),
        data.audit.forTarget(row.email, PAGE_SIZE.staffList + 1, activityBefore),
      ]);
      const activity = pageOf(activityRows, PAGE_SIZE.staffList, (entry) => [entry.id], auditEntryView);
      const now = Date.now();
      return {
        member: toAdminMember(row, subscriptions.get(row.id)),
        enrolments: record.enrolments.items,
        certificates: record.certificates.items,
        sign_ins: signIns.map((session) => ({
          started_at: session.createdAt.toISOString(),
          last_seen_at: session.lastSeenAt.toISOString(),
          device: deviceName(session.userAgent),
          address: session.ipAddress ?? '',
          active: session.revokedAt === null && session.expiresAt.getTime() > now,
        })),
        activity: activity.items,
        next: { courses: record.enrolments.next_cursor, certificates: record.certificates.next_cursor, activity: activity.next_cursor },
      };
    },

    async overview(viewer) {
      requireStaffArea(viewer, 'members');
      const weeks = lastWeeks(SHOWN.signUpWeeks);
      const since = new Date(`${weeks[0]}T00:00:00Z`);
      const [signups, enrolled, tiers] = await Promise.all([
        data.members.signupsByWeek(since),
        data.learning.enrolmentsByWeek(since),
        data.members.countByTier(),
      ]);
      const perWeek = (rows: { week: string; value: number }[]) =>
        weeks.map((week) => ({ week, count: rows.find((row) => row.week === week)?.value ?? 0 }));
      const inTier = (tier: string) => tiers.find((row) => row.tier === tier)?.value ?? 0;
      return {
        signups_by_week: perWeek(signups),
        enrolments_by_week: perWeek(enrolled),
        members_by_tier: { free: inTier('free'), bronze: inTier('bronze'), silver: inTier('silver'), gold: inTier('gold') },
      };
    },

    async search(viewer, query) {
      requireStaffArea(viewer, 'members');
      const before = query.before ? decodeCursor(query.before, MemberListCursor) : undefined;
      const rows = await data.members.search(query.search, PAGE_SIZE.staffList + 1, before && { createdAt: before[0], id: before[1] });
      const subscriptions = await data.billing.currentOf(rows.slice(0, PAGE_SIZE.staffList).map((row) => row.id));
      return pageOf(
        rows,
        PAGE_SIZE.staffList,
        (row) => [row.cursor, row.id],
        (row) => toAdminMember(row, subscriptions.get(row.id)),
      );
    },

    async *exportCsv(viewer, search) {
      const staff = requireStaffArea(viewer, 'members');
      // Every member's address leaves the site: the log says who took which, and when.
      await data.audit.record({
        actorEmail: staff.email,
        action: 'member.export',
        target: search ? `members matching "${search}"` : 'all members',
        oldValue: null,
        newValue: null,
      });
      yield `${['Name', 'Email', 'Tier', 'Joined'].join(',')}\r\n`;
      let before: MemberCursor | undefined;
      for (;;) {
        const rows = await data.members.search(search, STREAM_BATCH, before);
        if (rows.length > 0) {
          yield rows.map((row) => csvRow([row.name, row.email, row.tier, row.createdAt.toISOString().slice(0, 10)])).join('');
        }
        const last = rows.at(-1);
        if (!last || rows.length < STREAM_BATCH) return;
        before = { createdAt: last.cursor, id: last.id };
      }
    },

    async setTier(viewer, memberId, tier) {
      const staff = requireStaffArea(viewer, 'members');
      return data.transaction(async (tx) => {
        const member = await tx.members.findById(memberId);
        if (!member) throw notFound('Member not found');
        // Staff give a complimentary tier; the member's tier is then the higher of it and what they pay for.
        const complimentary = isPaidTier(tier) ? tier : null;
        await tx.members.setComplimentaryTier(member.id, complimentary);
        await applyMembershipTier(tx, member.id);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'member.tier',
          target: member.email,
          oldValue: member.complimentaryTier ?? 'free',
          newValue: tier,
        });
        const updated = await tx.members.findById(member.id);
        return { success: true as const, id: member.id, membership_tier: updated?.tier ?? tier };
      });
    },

    async drippedLessons(viewer) {
      requireStaffArea(viewer, 'members');
      const rows = await data.courses.drippedLessons(DRIPPED_LESSONS_LISTED);
      return rows.map((row) => ({ id: row.id, title: row.title, course_id: row.courseId, course_title: row.courseTitle }));
    },

    async openCourseEarly(viewer, memberId, input) {
      const staff = requireStaffArea(viewer, 'members');
      return data.transaction(async (tx) => {
        const member = await tx.members.findById(memberId);
        if (!member) throw notFound('Member not found');
        const course = await tx.courses.findById(input.course_id);
        if (!course || course.status !== 'published') throw badRequest('Choose a published course.', 'course_id');
        if (input.lesson_id) return openLessonEarly(tx, staff, member, course, input.lesson_id, input.reason);
        if (!course.prerequisiteCourseId && !(await tx.courses.hasDrippedLessons(course.id))) {
          throw badRequest(
            `“${course.title}” builds on no other course and opens every lesson at once: it is open to every member its plan reaches.`,
            'course_id',
          );
        }
        const opened = await tx.courses.openEarly({ memberId: member.id, courseId: course.id, reason: input.reason, openedById: staff.id });
        if (!opened) throw conflict(`“${course.title}” is already open to this member.`);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'course.opened_early',
          target: member.email,
          oldValue: null,
          newValue: { course: course.id, reason: input.reason },
        });
        return {
          member_id: member.id,
          course_id: course.id,
          course_title: course.title,
          lesson_id: null,
          lesson_title: null,
          reason: input.reason,
        };
      });
    },
  };
}
