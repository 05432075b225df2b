import { Form, Link, redirect, useActionData, useFetcher, useNavigation } from 'react-router';
import { z } from 'zod';
import {
  CourseParams,
  CourseStatusInput,
  CourseUpdate,
  LessonInput,
  LessonParams,
  type StaffCourse,
  type StaffLesson,
} from '../../../../common/courses.contract.ts';
import { CourseFields, formValues, libraryChoices, withCaptions } from '../../../components/admin/course-forms.tsx';
import { LessonFields } from '../../../components/admin/lesson-fields.tsx';
import { approvalsFrom, CourseCeFields } from '../../../components/admin/course-ce-fields.tsx';
import { CourseCeInput, type CourseCeView } from '../../../../common/licence.contract.ts';
import { EditDetails } from '../../../components/admin/edit-details.tsx';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmedForm } from '../../../components/ui/confirmed-form.tsx';
import { attempt, formErrors, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/course-editor';

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const id = CourseParams.safeParse({ id: params.courseId });
  if (!id.success) throw new Response('Course not found', { status: 404 });
  const [detail, files, catalogue, ce] = await Promise.all([
    attempt(() => services.courseAuthoring.get(viewer, id.data.id)),
    services.files.choices(viewer),
    services.courses.list(),
    attempt(() => services.licence.courseCe(viewer, id.data.id)),
  ]);
  if (!detail.ok) throw new Response(detail.message, { status: detail.status });
  if (!ce.ok) throw new Response(ce.message, { status: ce.status });
  const otherCourses = catalogue.filter((other) => other.id !== id.data.id).map((other) => ({ id: other.id, title: other.title }));
  return { ...detail.value, library: libraryChoices(files), otherCourses, ce: ce.value };
}

const LessonId = z.object({ lessonId: LessonParams.shape.id });
const Move = LessonId.extend({ direction: z.enum(['up', 'down']) });

/** A lesson's form as the contract reads it: its captions come as two lists in step, a language and a file each. */
function lessonValues(form: FormData) {
  const values = formValues(form, {
    checkboxes: ['free_preview'],
    lists: ['attachment_file_ids', 'captions_language', 'captions_file_id'],
    nullable: ['video_file_id', 'opens_after_days', 'opens_on'],
  });
  const opensAfter = values.opens_after_days;
  return {
    ...withCaptions(values),
    // A number field arrives as text; what is not a number is refused by the contract as such.
    opens_after_days: opensAfter === null || opensAfter === undefined ? null : Number(opensAfter),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const authoring = services.courseAuthoring;
  const courseId = params.courseId;
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const intent = form.get('intent');
  const done = (message: string) => ({ ok: true as const, intent, message });
  const run = async (work: () => Promise<unknown>, message: string) => {
    const result = await attempt(work);
    return result.ok ? done(message) : result.refusal;
  };

  if (intent === 'save') {
    const input = CourseUpdate.safeParse(
      formValues(form, {
        checkboxes: ['certificate', 'certificate_shows_score'],
        nullable: ['thumbnail_file_id', 'early_access_until', 'prerequisite_course_id'],
      }),
    );
    return input.success ? run(() => authoring.update(viewer, courseId, input.data), 'Course saved.') : refusedBy(input.error);
  }
  if (intent === 'ce') {
    const hours = String(form.get('ce_hours') ?? '').trim();
    const topic = String(form.get('ce_topic') ?? '');
    const input = CourseCeInput.safeParse({
      ce_hours: hours === '' ? null : hours,
      ce_topic: topic === '' ? null : topic,
      ce_approvals: approvalsFrom(String(form.get('ce_approvals') ?? '')),
    });
    return input.success
      ? run(() => services.licence.saveCourseCe(viewer, courseId, input.data), 'Continuing education saved.')
      : refusedBy(input.error);
  }
  if (intent === 'status') {
    const input = CourseStatusInput.safeParse({ status: form.get('status') });
    if (!input.success) return refusedBy(input.error);
    const label = { draft: 'Course unpublished: it is a draft again.', published: 'Course published.', archived: 'Course archived.' };
    return run(() => authoring.setStatus(viewer, courseId, input.data.status), label[input.data.status]);
  }
  if (intent === 'delete') {
    const removed = await attempt(() => authoring.remove(viewer, courseId));
    if (!removed.ok) return removed.refusal;
    throw redirect('/admin/dashboard/courses');
  }
  if (intent === 'add-lesson') {
    const input = LessonInput.safeParse(lessonValues(form));
    return input.success ? run(() => authoring.addLesson(viewer, courseId, input.data), 'Lesson added.') : refusedBy(input.error);
  }
  if (intent === 'edit-lesson') {
    const lesson = LessonId.safeParse({ lessonId: form.get('lessonId') });
    const input = LessonInput.safeParse(lessonValues(form));
    if (!lesson.success) return refusedBy(lesson.error);
    return input.success
      ? run(() => authoring.updateLesson(viewer, lesson.data.lessonId, input.data), 'Lesson saved.')
      : refusedBy(input.error);
  }
  if (intent === 'remove-lesson') {
    const lesson = LessonId.safeParse({ lessonId: form.get('lessonId') });
    return lesson.success ? run(() => authoring.removeLesson(viewer, lesson.data.lessonId), 'Lesson removed.') : refusedBy(lesson.error);
  }
  if (intent === 'move') {
    const move = Move.safeParse({ lessonId: form.get('lessonId'), direction: form.get('direction') });
    if (!move.success) return refusedBy(move.error);
    const { lessons } = await authoring.get(viewer, courseId);
    const order = lessons.map((lesson) => lesson.id);
    const from = order.indexOf(move.data.lessonId);
    const to = from + (move.data.direction === 'up' ? -1 : 1);
    if (from < 0 || to < 0 || to >= order.length) return done('Lesson order unchanged.');
    [order[from], order[to]] = [order[to]!, order[from]!];
    return run(() => authoring.reorderLessons(viewer, courseId, order), 'Lesson order saved.');
  }
  return formErrors('Unknown action.');
}

function StatusActions({ course }: { course: StaffCourse }) {
  const fetcher = useFetcher<typeof action>();
  const button = (status: string, label: string) => (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="status" value={status} />
      <Button type="submit" size="sm" variant={status === 'published' ? undefined : 'outline'} disabled={fetcher.state !== 'idle'}>
        {label}
      </Button>
    </fetcher.Form>
  );
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        {course.status !== 'published' && button('published', 'Publish')}
        {course.status === 'published' && course.enrolled_count === 0 && button('draft', 'Unpublish')}
        {course.status !== 'archived' && button('archived', 'Archive')}
        {course.enrolled_count === 0 && (
          <ConfirmedForm fetcher={fetcher} question={`Delete “${course.title}” and its lessons for good?`} fields={{ intent: 'delete' }}>
            <Button type="submit" size="sm" variant="outline" className="border-red-700 text-red-700" disabled={fetcher.state !== 'idle'}>
              Delete
            </Button>
          </ConfirmedForm>
        )}
      </div>
      <Outcome answer={fetcher.data} />
    </div>
  );
}

function LessonItem({
  courseId,
  lesson,
  index,
  count,
  library,
}: {
  courseId: string;
  lesson: StaffLesson;
  index: number;
  count: number;
  library: ReturnType<typeof libraryChoices>;
}) {
  const fetcher = useFetcher<typeof action>();
  const answer = fetcher.data;
  const small = (intent: string, label: string, extra: Record<string, string> = {}, disabled = false) => (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="lessonId" value={lesson.id} />
      {Object.entries(extra).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        disabled={disabled || fetcher.state !== 'idle'}
        aria-label={`${label}: ${lesson.title}`}
        className="rounded-lg border border-gray-300 px-2 py-1 text-xs font-semibold text-gray-800 hover:bg-gray-50 disabled:opacity-40"
      >
        {label}
      </button>
    </fetcher.Form>
  );
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4" data-lesson-id={lesson.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="min-w-0 font-semibold text-gray-900">
          {index + 1}. {lesson.title} <span className="text-sm font-normal text-gray-500">({lesson.duration})</span>
          {lesson.free_preview && <span className="ml-2 rounded bg-gold-100 px-2 py-0.5 text-xs">Free preview</span>}
          {(lesson.video_file_id || lesson.video_url) && <span className="ml-2 text-xs text-gray-500">video</span>}
          {lesson.kind === 'quiz' && <span className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-xs text-brand-800">Quiz</span>}
        </p>
        <div className="flex flex-wrap gap-2">
          {small('move', 'Move up', { direction: 'up' }, index === 0)}
          {small('move', 'Move down', { direction: 'down' }, index === count - 1)}
          {small('remove-lesson', 'Remove')}
        </div>
      </div>
      {lesson.kind === 'quiz' && (
        <Link
          to={`/admin/dashboard/courses/${courseId}/quiz/${lesson.id}`}
          className="mt-1 inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600"
          aria-label={`Questions and results: ${lesson.title}`}
        >
          Questions and results
        </Link>
      )}
      <EditDetails
        fetcher={fetcher}
        summary="Edit lesson"
        fields={{ intent: 'edit-lesson', lessonId: lesson.id }}
        submitLabel="Save lesson"
      >
        <LessonFields
          lesson={lesson}
          videos={library.videos}
          captions={library.captions}
          attachments={library.attachments}
          errors={answer && !answer.ok ? answer.fieldErrors : {}}
        />
      </EditDetails>
    </li>
  );
}

/** The course's CE: saved on its own, as it is checked against the certificate and the states. */
function CeSection({ ce }: { ce: CourseCeView }) {
  const fetcher = useFetcher<typeof action>();
  const answer = fetcher.data;
  return (
    <div className="rounded-2xl bg-white p-4 sm:p-6">
      <h3 className="text-lg font-bold text-gray-900">Continuing education</h3>
      <p className="mt-1 text-sm text-gray-600">
        Completing the course adds its hours to the licence ledger of members in the states that approve it, with its certificate.{' '}
        <Link to="/admin/dashboard/courses/ce-requirements" className="font-semibold text-brand-800 underline">
          Requirements by state
        </Link>
      </p>
      <fetcher.Form method="post" className="mt-4 space-y-3">
        <input type="hidden" name="intent" value="ce" />
        <CourseCeFields ce={ce} errors={answer && !answer.ok ? answer.fieldErrors : {}} />
        <Outcome answer={answer} />
        <Button type="submit" disabled={fetcher.state !== 'idle'}>
          Save continuing education
        </Button>
      </fetcher.Form>
    </div>
  );
}

export default function CourseEditor({ loaderData }: Route.ComponentProps) {
  const { course, lessons, library } = loaderData;
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.formData?.get('intent');
  const adding = useFetcher<typeof action>();
  const added = adding.data;
  return (
    <section className="space-y-6">
      <Link
        to="/admin/dashboard/courses"
        className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600"
      >
        ← All courses
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-xl font-bold text-gray-900">{course.title}</h2>
          <p className="text-sm text-gray-600">
            <span data-testid="course-status">{course.status}</span> · {course.enrolled_count} enrolled · {course.completed_count} completed
            ·{' '}
            {course.status === 'published' ? (
              <Link to={`/courses/${course.id}`} className="font-semibold text-brand-800">
                View in the catalogue
              </Link>
            ) : (
              'not in the catalogue'
            )}
          </p>
        </div>
        <img src={course.thumbnail} alt="" width={160} height={90} className="h-[90px] w-40 rounded-lg object-cover" />
      </div>
      <StatusActions course={course} />

      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h3 className="text-lg font-bold text-gray-900">Details</h3>
        <Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="save" />
          <CourseFields
            course={course}
            images={library.images}
            otherCourses={loaderData.otherCourses}
            errors={answer && !answer.ok ? answer.fieldErrors : {}}
          />
          <Outcome answer={answer} />
          <Button type="submit" disabled={submitting === 'save'}>
            {submitting === 'save' ? 'Saving...' : 'Save course'}
          </Button>
        </Form>
      </div>

      <CeSection ce={loaderData.ce} />

      <div>
        <h3 className="text-lg font-bold text-gray-900">Lessons</h3>
        {lessons.length === 0 ? (
          <p className="mt-2 text-sm text-gray-500">No lessons yet: add the first one below.</p>
        ) : (
          <ol className="mt-3 space-y-3">
            {lessons.map((lesson, index) => (
              <LessonItem key={lesson.id} courseId={course.id} lesson={lesson} index={index} count={lessons.length} library={library} />
            ))}
          </ol>
        )}
      </div>

      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h3 className="text-lg font-bold text-gray-900">Add a lesson</h3>
        {/* Keyed by the number of lessons, so the form empties once a lesson is in. */}
        <adding.Form method="post" className="mt-4 space-y-3" key={lessons.length}>
          <input type="hidden" name="intent" value="add-lesson" />
          <LessonFields
            videos={library.videos}
            captions={library.captions}
            attachments={library.attachments}
            errors={added && !added.ok ? added.fieldErrors : {}}
          />
          <Outcome answer={added} />
          <Button type="submit" disabled={adding.state !== 'idle'}>
            {adding.state !== 'idle' ? 'Adding...' : 'Add lesson'}
          </Button>
        </adding.Form>
      </div>
    </section>
  );
}
