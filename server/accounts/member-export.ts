import type { InvoiceView } from '../../common/billing.contract.ts';
import { type Viewer } from '../../common/viewer.ts';
import { requireMember } from '../../common/policies.ts';
import type { DataAccess } from '../repositories.ts';
import { deviceName } from '../sessions/device-name.ts';
import { GOALS, SHOWN, STREAM_BATCH } from '../../common/limits.ts';

// A page of the member's own rows at a time: the export holds every one of them without holding them all.
const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Rows read page after page, each page continuing after the last row of the one before. */
async function* pages<T, K>(read: (after: K | undefined) => Promise<T[]>, keyOf: (row: T) => K): AsyncGenerator<T> {
  let after: K | undefined;
  for (;;) {
    const rows = await read(after);
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < STREAM_BATCH) return;
    after = keyOf(last);
  }
}

/** A JSON array of every row, written as the rows come. */
async function* jsonArray<T>(rows: AsyncIterable<T>, view: (row: T) => unknown): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const row of rows) {
    yield `${first ? '' : ','}${JSON.stringify(view(row))}`;
    first = false;
  }
  yield ']';
}

/**
 * 'Download my data' (the privacy policy's right to one's data): the member's profile, plan and
 * invoices, courses and progress, certificates, courses staff opened early for them, quiz tries and their answers, discussions, replies and likes, sign-ins and consents,
 * live sessions RSVP'd to and joined, 1-on-1s, goals and their progress, licences and continuing education, the lifecycle mails sent to them, and messages sent to staff,
 * as one JSON document written page by page. Nothing of another member (a reply names the
 * discussion it answers by id only), and no secret (no password hash, no token).
 */
export function createMemberExport(deps: { data: DataAccess; invoices: (viewer: Viewer) => Promise<InvoiceView[]>; billingOn: boolean }) {
  const { data } = deps;
  return async function* exportOf(viewer: Viewer): AsyncGenerator<string> {
    const member = requireMember(viewer);
    const account = await data.members.findAccount({ id: member.id });
    if (!account) return;
    const [subscriptions, progress, signIns] = await Promise.all([
      data.billing.subscriptionsOf(member.id),
      data.learning.progressOf(member.id),
      data.members.signIns(member.id, SHOWN.exportedSignIns),
    ]);
    const invoices = deps.billingOn ? await deps.invoices(viewer).catch(() => null) : [];
    const head = {
      format: 'realtypocket-member-data/1',
      exported_at: new Date().toISOString(),
      profile: {
        name: account.name,
        email: account.email,
        membership_tier: account.membershipTier,
        complimentary_tier: account.complimentaryTier,
        joined_at: iso(account.createdAt),
        email_confirmed_at: iso(account.emailVerifiedAt),
        community_suspended_at: iso(account.communitySuspendedAt),
        time_zone: account.timeZone,
      },
      consents: {
        // The terms and the age of 18 are accepted at sign-up; marketing mail until one unsubscribes.
        terms_accepted_at: iso(account.createdAt),
        optional_email: !account.emailOptOut,
        weekly_tips: account.weeklyTips,
      },
      plan: subscriptions.map((row) => ({
        status: row.status,
        tier: row.tier,
        period: row.period,
        amount_cents: row.amountCents,
        currency: row.currency,
        started_at: iso(row.startedAt),
        current_period_end: iso(row.currentPeriodEnd),
        cancel_at_period_end: row.cancelAtPeriodEnd,
        ended_at: iso(row.endedAt),
        refunded_cents: row.refundedCents,
      })),
      invoices: invoices ?? 'Stripe could not be reached: ask us for your invoices, or download this again later.',
      lessons_completed: progress.map((row) => ({ lesson_id: row.lessonId, course_id: row.courseId, completed_at: iso(row.completedAt) })),
      sign_ins: signIns.map((row) => ({
        signed_in_at: iso(row.createdAt),
        last_used_at: iso(row.lastSeenAt),
        device: deviceName(row.userAgent),
        address: row.ipAddress,
      })),
    };
    const text = JSON.stringify(head);
    yield text.slice(0, -1);

    yield ',"courses":';
    yield* jsonArray(
      pages(
        (after: { enrolledAt: string; courseId: string } | undefined) => data.learning.listEnrolments(member.id, STREAM_BATCH, after),
        (row) => ({ enrolledAt: row.enrolledKey, courseId: row.course.id }),
      ),
      (row) => ({
        course_id: row.course.id,
        title: row.course.title,
        enrolled_at: iso(row.enrolledAt),
        lessons_completed: row.completedCount,
      }),
    );
    yield ',"certificates":';
    yield* jsonArray(
      pages(
        (after: { issuedAt: string; id: string } | undefined) => data.learning.listCertificates(member.id, STREAM_BATCH, after),
        (row) => ({ issuedAt: row.issuedKey, id: row.id }),
      ),
      (row) => ({
        code: row.code,
        course_id: row.courseId,
        course_title: row.courseTitle,
        issued_at: iso(row.issuedAt),
        score_percent: row.scorePercent,
      }),
    );
    yield ',"courses_opened_early":';
    yield* jsonArray(
      pages(
        (after: { openedAt: string; courseId: string } | undefined) => data.courses.earlyOpeningsOf(member.id, STREAM_BATCH, after),
        (row) => ({ openedAt: row.openedKey, courseId: row.courseId }),
      ),
      (row) => ({ course_id: row.courseId, opened_at: iso(row.openedAt), reason: row.reason }),
    );
    yield ',"lessons_opened_early":';
    yield* jsonArray(
      pages(
        (after: { openedAt: string; lessonId: string } | undefined) => data.courses.lessonEarlyOpeningsOf(member.id, STREAM_BATCH, after),
        (row) => ({ openedAt: row.openedKey, lessonId: row.lessonId }),
      ),
      (row) => ({ lesson_id: row.lessonId, opened_at: iso(row.openedAt), reason: row.reason }),
    );
    yield ',"quiz_tries":';
    yield* jsonArray(
      pages(
        (after: { startedAt: string; id: string } | undefined) => data.quizzes.triesPage(member.id, STREAM_BATCH, after),
        (row) => ({ startedAt: row.startedKey, id: row.id }),
      ),
      (row) => ({
        lesson_id: row.lessonId,
        started_at: iso(row.startedAt),
        sent_at: iso(row.submittedAt),
        score_percent: row.scorePercent,
        passed: row.passed,
        timed_out: row.timedOut,
        answers: row.answers.map((answer) => ({ question_id: answer.questionId, answer_ids: answer.optionIds, right: answer.right })),
      }),
    );
    yield ',"discussions":';
    yield* jsonArray(
      pages(
        (after: { createdAt: string; id: string } | undefined) => data.community.writtenBy(member.id, STREAM_BATCH, after),
        (row) => ({ createdAt: row.createdKey, id: row.id }),
      ),
      (row) => ({
        id: row.id,
        space: row.space,
        title: row.title,
        text: row.content,
        created_at: iso(row.createdAt),
        edited_at: iso(row.editedAt),
      }),
    );
    yield ',"replies":';
    yield* jsonArray(
      pages(
        (after: { createdAt: string; id: string } | undefined) => data.community.repliedBy(member.id, STREAM_BATCH, after),
        (row) => ({ createdAt: row.createdKey, id: row.id }),
      ),
      (row) => ({ id: row.id, discussion_id: row.postId, text: row.body, created_at: iso(row.createdAt), edited_at: iso(row.editedAt) }),
    );
    yield ',"likes":';
    yield* jsonArray(
      pages(
        (after: string | undefined) => data.community.likedBy(member.id, STREAM_BATCH, after),
        (row) => row.postId,
      ),
      (row) => ({ discussion_id: row.postId, liked_at: iso(row.createdAt) }),
    );
    yield ',"live_sessions":';
    yield* jsonArray(
      pages(
        (after: { rsvpedAt: string; sessionId: string } | undefined) => data.coaching.rsvpsOf(member.id, STREAM_BATCH, after),
        (row) => ({ rsvpedAt: row.rsvpedKey, sessionId: row.sessionId }),
      ),
      (row) => ({
        session_id: row.sessionId,
        title: row.title,
        starts_at: iso(row.startsAt),
        rsvped_at: iso(row.rsvpedAt),
        joined_at: iso(row.joinedAt),
      }),
    );
    yield ',"one_on_ones":';
    yield* jsonArray(
      pages(
        (after: { createdAt: string; id: string } | undefined) => data.oneOnOne.bookingsOf(member.id, STREAM_BATCH, after),
        (row) => ({ createdAt: row.createdKey, id: row.booking.id }),
      ),
      (row) => ({
        coach: row.coachName,
        starts_at: iso(row.booking.startsAt),
        ends_at: iso(row.booking.endsAt),
        topic: row.booking.topic,
        booked_at: iso(row.booking.createdAt),
        cancelled_at: iso(row.booking.cancelledAt),
      }),
    );
    const goals = await data.goals.listOf(member.id, GOALS.maxActive);
    yield `,"goals":${JSON.stringify(
      goals.map((goal) => ({
        id: goal.id,
        kind: goal.kind,
        title: goal.title,
        target: goal.target,
        unit: goal.unit,
        period: goal.period,
        due_on: goal.dueOn,
        course_id: goal.courseId,
        reminder: goal.reminder,
        created_at: iso(goal.createdAt),
      })),
    )}`;
    yield ',"goal_progress":';
    yield* jsonArray(
      pages(
        (after: { createdAt: string; id: string } | undefined) => data.goals.entriesOf(member.id, STREAM_BATCH, after),
        (row) => ({ createdAt: row.createdKey, id: row.id }),
      ),
      (row) => ({ goal_id: row.goalId, amount: row.amount, logged_on: row.loggedOn, logged_at: iso(row.createdAt) }),
    );
    const licences = await data.licence.licencesOf([member.id]);
    yield `,"licences":${JSON.stringify(
      licences.map(({ licence }) => ({
        state: licence.state,
        licence_type: licence.licenceType,
        licence_number: licence.licenceNumber,
        renews_on: licence.renewsOn,
        recorded_at: iso(licence.createdAt),
      })),
    )}`;
    yield ',"continuing_education":';
    yield* jsonArray(
      pages(
        (after: { createdAt: string; id: string } | undefined) => data.licence.entriesOf(member.id, STREAM_BATCH, after),
        (row) => ({ createdAt: row.createdKey, id: row.id }),
      ),
      (row) => ({
        state: row.state,
        source: row.source,
        course_name: row.courseName,
        provider: row.provider,
        hours: row.hours,
        topic: row.topic,
        completed_on: row.completedOn,
        approval_number: row.approvalNumber,
        certificate_code: row.certificateCode,
        certificate_file: row.certificateFilename,
      }),
    );
    yield ',"lifecycle_mails":';
    yield* jsonArray(
      pages(
        (after: { sentAt: string; id: string } | undefined) => data.lifecycle.sentTo(member.id, STREAM_BATCH, after),
        (row) => ({ sentAt: row.sentKey, id: row.id }),
      ),
      (row) => ({ automation: row.automation, sent_at: iso(row.sentAt), opened_at: iso(row.openedAt) }),
    );
    yield ',"messages_to_us":';
    yield* jsonArray(
      pages(
        (after: { createdAt: string; id: string } | undefined) => data.contact.sentBy(member.id, STREAM_BATCH, after),
        (row) => ({ createdAt: row.createdKey, id: row.id }),
      ),
      (row) => ({
        subject: row.subject,
        message: row.message,
        name: row.name,
        email: row.email,
        sent_at: iso(row.createdAt),
        replied: row.handled,
      }),
    );
    yield '}\n';
  };
}
