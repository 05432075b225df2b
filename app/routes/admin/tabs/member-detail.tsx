import { Form, Link, useActionData, useNavigation } from 'react-router';
import { EarlyOpeningInput, MemberDetailQuery, MemberParams } from '../../../../common/admin.contract.ts';
import { TEXT_MAX } from '../../../../common/limits.ts';
import { formatDate, formatDateTime } from '../../../../common/format.ts';
import { TierBadge } from '../../../components/catalogue/tier-badge.tsx';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Select, Textarea } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { attempt, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/member-detail';

// Owners only: the service refuses editors, and the page says why.
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const id = MemberParams.safeParse({ id: params.memberId });
  if (!id.success) throw new Response('Member not found', { status: 404 });
  // Each list pages on its own (?courses=, ?certificates=, ?activity=); a broken link shows the first pages.
  const asked = MemberDetailQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const [detail, catalogue, dripped] = await Promise.all([
    attempt(() => services.members.detail(viewer, id.data.id, asked.success ? asked.data : {})),
    services.courses.list(),
    attempt(() => services.members.drippedLessons(viewer)),
  ]);
  if (!detail.ok && detail.status === 404) throw new Response(detail.message, { status: 404 });
  // The courses an owner may open early (those that build on another, or drip their lessons; the service says which do not).
  const openable = catalogue.map((course) => ({ id: course.id, title: course.title }));
  const lessons = dripped.ok ? dripped.value : [];
  return detail.ok
    ? { detail: detail.value, refusal: null, openable, lessons }
    : { detail: null, refusal: detail.message, openable, lessons };
}

// 'Open a course early': the course and the reason, which the activity log keeps.
export async function action({ context, params, request }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const member = MemberParams.safeParse({ id: params.memberId });
  if (!member.success) return refusedBy(member.error);
  // A lesson chosen names its course: 'course-id/lesson-id'; the course alone is the whole course.
  const [courseId, lessonId] = String(form.get('opening') ?? '').split('/');
  const input = EarlyOpeningInput.safeParse({ course_id: courseId, lesson_id: lessonId || null, reason: form.get('reason') });
  if (!input.success) return refusedBy(input.error);
  const opened = await attempt(() => services.members.openCourseEarly(viewer, member.data.id, input.data));
  if (!opened.ok) return opened.refusal;
  const what = opened.value.lesson_title
    ? `“${opened.value.lesson_title}” of “${opened.value.course_title}”`
    : `“${opened.value.course_title}”`;
  return { ok: true as const, message: `${what} is open to this member now.` };
}

/** Opens a course that builds on another to this member before they completed that one. */
function OpenEarlyForm({
  courses,
  lessons,
}: {
  courses: { id: string; title: string }[];
  lessons: { id: string; title: string; course_id: string; course_title: string }[];
}) {
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const errors = answer && !answer.ok ? answer.fieldErrors : {};
  return (
    <Form method="post" className="grid gap-3">
      <Select
        compact
        label="Course, or one of its dripped lessons"
        name="opening"
        options={[
          ...courses.map((course) => ({ value: course.id, label: course.title })),
          ...lessons.map((lesson) => ({
            value: `${lesson.course_id}/${lesson.id}`,
            label: `${lesson.course_title}: lesson “${lesson.title}” only`,
          })),
        ]}
        error={errors.course_id ?? errors.lesson_id}
      />
      <Textarea
        compact
        label="Why (kept in the activity log)"
        name="reason"
        required
        maxLength={TEXT_MAX.earlyOpeningReason}
        rows={2}
        error={errors.reason}
      />
      <div>
        <Button type="submit" size="sm" disabled={busy}>
          Open now
        </Button>
      </div>
      <Outcome answer={answer} />
    </Form>
  );
}

function Section({ title, empty, children }: { title: string; empty: string | null; children: React.ReactNode }) {
  return (
    <section className="rounded-2xl bg-white p-4 sm:p-6">
      <h3 className="text-lg font-bold text-gray-900">{title}</h3>
      {empty ? <p className="mt-2 text-sm text-gray-500">{empty}</p> : <div className="mt-3">{children}</div>}
    </section>
  );
}

export default function MemberDetailPage({ loaderData }: Route.ComponentProps) {
  const { detail, refusal, openable } = loaderData;
  if (!detail) return <p className="rounded-xl bg-white p-6 text-gray-700">{refusal}</p>;
  const { member, enrolments, certificates, sign_ins: signIns, activity, next } = detail;
  return (
    <div className="space-y-6">
      <Link
        to="/admin/dashboard/members"
        className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600"
      >
        ← All members
      </Link>
      <div>
        <h2 className="break-words text-xl font-bold text-gray-900">{member.name}</h2>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-gray-600">
          <span className="break-all">{member.email}</span>
          <TierBadge tier={member.membership_tier} />
          <span>Joined {formatDate(member.created_at)}</span>
        </p>
      </div>

      <Section title="Courses" empty={enrolments.length === 0 ? 'Not enrolled in any course yet.' : null}>
        <ul className="space-y-3">
          {enrolments.map((course) => (
            <li key={course.id} data-course-id={course.id}>
              <div className="flex flex-wrap justify-between gap-2 text-sm">
                <span className="font-semibold text-gray-900">{course.title}</span>
                <span className="text-gray-600">
                  {course.completed_lessons} of {course.lesson_count} lessons · {course.progress_percent}%
                </span>
              </div>
              <div className="mt-1 h-2 rounded-full bg-gray-100">
                <div className="h-2 rounded-full bg-gold-500" style={{ width: `${course.progress_percent}%` }} />
              </div>
            </li>
          ))}
        </ul>
        <Pager param="courses" next={next.courses} />
      </Section>

      <Section title="Open a course early" empty={openable.length === 0 ? 'No course is published.' : null}>
        <p className="mb-3 text-sm text-gray-600">
          A course that builds on another opens once that one is completed, and a dripped lesson on its day; open the course and its lessons
          now for this member, and say why.
        </p>
        <OpenEarlyForm courses={openable} lessons={loaderData.lessons} />
      </Section>

      <Section title="Certificates" empty={certificates.length === 0 ? 'No certificates yet.' : null}>
        <ul className="space-y-2 text-sm">
          {certificates.map((certificate) => (
            <li key={certificate.code}>
              <Link to={`/certificates/${certificate.code}`} className="font-semibold text-brand-800">
                {certificate.course_title}
              </Link>{' '}
              <span className="text-gray-500">· {formatDate(certificate.issued_at)}</span>
            </li>
          ))}
        </ul>
        <Pager param="certificates" next={next.certificates} />
      </Section>

      <Section title="Sign-ins" empty={signIns.length === 0 ? 'Never signed in.' : null}>
        <ul className="divide-y divide-gray-100 text-sm">
          {signIns.map((signIn) => (
            <li key={signIn.started_at} className="flex flex-wrap justify-between gap-2 py-2">
              <span className="text-gray-900">
                {signIn.device} {signIn.active && <span className="text-xs font-semibold text-green-700">· signed in</span>}
              </span>
              <span className="text-gray-500">
                {formatDateTime(signIn.started_at)} · last seen {formatDateTime(signIn.last_seen_at)}
                {signIn.address && ` · ${signIn.address}`}
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Activity" empty={activity.length === 0 ? 'No staff or billing changes to this member.' : null}>
        <ul className="divide-y divide-gray-100 text-sm">
          {activity.map((entry) => (
            <li key={entry.id} className="flex flex-wrap justify-between gap-2 py-2">
              <span className="font-medium text-gray-900">{entry.action}</span>
              <span className="text-gray-500">
                {entry.actor_email} · {formatDateTime(entry.created_at)}
              </span>
            </li>
          ))}
        </ul>
        <Pager param="activity" next={next.activity} />
      </Section>
    </div>
  );
}
