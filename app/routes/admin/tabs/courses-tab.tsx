import { Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { CourseInput, type StaffCourse } from '../../../../common/courses.contract.ts';
import { TierBadge } from '../../../components/catalogue/tier-badge.tsx';
import { CourseFields, formValues, libraryChoices } from '../../../components/admin/course-forms.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { attempt, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { listPageOf, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/courses-tab';

// A page of courses in catalogue order; the next is in the address (?before=), so paging works without JavaScript.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const [page, files] = await Promise.all([services.courseAuthoring.list(viewer, listPageOf(request)), services.files.choices(viewer)]);
  return { courses: page.items, next: page.next_cursor, images: libraryChoices(files).images };
}

// 'Create course': a draft, then its editor.
export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const input = CourseInput.safeParse(
    formValues(form, { checkboxes: ['certificate', 'certificate_shows_score'], nullable: ['thumbnail_file_id', 'early_access_until'] }),
  );
  if (!input.success) return refusedBy(input.error);
  const created = await attempt(() => services.courseAuthoring.create(viewer, input.data));
  if (!created.ok) return created.refusal;
  throw redirect(`/admin/dashboard/courses/${created.value.course.id}`);
}

const STATUS_LABEL = { draft: 'Draft', published: 'Published', archived: 'Archived' } as const;
const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`);

function CourseRow({ course }: { course: StaffCourse }) {
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4" data-course-id={course.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <Link
            to={`/admin/dashboard/courses/${course.id}`}
            className="inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600"
          >
            {course.title}
          </Link>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-gray-600">
            <TierBadge tier={course.tier} />
            <span data-testid="course-status">{STATUS_LABEL[course.status]}</span>
            <span>· {course.lesson_count} lessons</span>
          </p>
        </div>
        <dl className="grid grid-cols-4 gap-3 text-center text-xs text-gray-600">
          <div>
            <dt>Enrolled</dt>
            <dd className="text-base font-bold text-gray-900">{course.enrolled_count}</dd>
          </div>
          <div>
            <dt>Completed</dt>
            <dd className="text-base font-bold text-gray-900">{course.completed_count}</dd>
          </div>
          <div>
            <dt>Completion</dt>
            <dd className="text-base font-bold text-gray-900">{percent(course.completed_count, course.enrolled_count)}</dd>
          </div>
          <div>
            <dt>Avg. progress</dt>
            <dd className="text-base font-bold text-gray-900">{course.enrolled_count === 0 ? '–' : `${course.average_progress}%`}</dd>
          </div>
        </dl>
      </div>
    </li>
  );
}

export default function CoursesTab({ loaderData }: Route.ComponentProps) {
  const { courses, next, images } = loaderData;
  const refused = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <section className="space-y-8">
      <div>
        <h2 className="text-xl font-bold text-gray-900">Courses</h2>
        <p className="mt-1 text-sm text-gray-600">
          Only published courses are in the catalogue. A course members have started can be archived, never deleted: they keep their
          progress and certificates.{' '}
          <Link to="/admin/dashboard/courses/ce-requirements" className="font-semibold text-brand-800 underline">
            Continuing education requirements by state
          </Link>
        </p>
        {courses.length === 0 ? (
          <p className="mt-3 text-sm text-gray-500">No courses yet. Create the first one below.</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {courses.map((course) => (
              <CourseRow key={course.id} course={course} />
            ))}
          </ul>
        )}
        <Pager param="before" next={next} />
      </div>
      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h2 className="text-xl font-bold text-gray-900">New course</h2>
        <Form method="post" className="mt-4 space-y-4">
          {refused?.formError && (
            <p role="alert" className="text-sm text-red-700">
              {refused.formError}
            </p>
          )}
          <CourseFields images={images} errors={refused?.fieldErrors} />
          <Button type="submit" disabled={busy}>
            {busy ? 'Creating...' : 'Create course'}
          </Button>
        </Form>
      </div>
    </section>
  );
}
