import { useEffect, useState } from 'react';
import { data, Link, useRevalidator } from 'react-router';
import { toast } from 'sonner';
import { requestServicesContext } from '#request-context';
import type { Course, Lesson } from '../../../common/catalogue.ts';
import { CourseMainAction, enrolState } from '../../components/catalogue/course-actions.tsx';
import { TierBadge } from '../../components/catalogue/tier-badge.tsx';
import { Accordion } from '../../components/ui/accordion.tsx';
import { postJson } from '../../lib/api-client.ts';
import { pageMeta } from '../../lib/meta.ts';
import { useRootData } from '../../root.tsx';
import type { Route } from './+types/course-detail';

/** The member's progress in this course (GET /api/courses/:id/progress). */
interface CourseProgress {
  enrolled: boolean;
  completed_lesson_ids: string[];
  progress_percent: number;
  certificate_code: string | null;
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const services = context.get(requestServicesContext);
  const id = encodeURIComponent(params.courseId);
  const [course, lessons, progress] = await Promise.all([
    services.api<Course>(`/api/courses/${id}`),
    services.api<Lesson[]>(`/api/courses/${id}/lessons`),
    services.viewer.member ? services.api<CourseProgress>(`/api/courses/${id}/progress`) : null,
  ]);
  if (!course.ok) return data({ course: null, lessons: [] as Lesson[], progress: null }, { status: course.status === 404 ? 404 : 500 });
  return { course: course.data, lessons: lessons.ok ? lessons.data : [], progress: progress?.ok ? progress.data : null };
}

export const meta = ({ loaderData }: Route.MetaArgs) =>
  loaderData?.course
    ? pageMeta({ title: loaderData.course.title, description: loaderData.course.description, path: `/courses/${loaderData.course.id}` })
    : pageMeta({ title: 'Course not found', description: 'This course does not exist.' });

function CourseNotFound() {
  useEffect(() => {
    toast.error('Course not found');
  }, []);
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-extrabold text-brand-800">Course not found</h1>
      <p className="mt-4 text-gray-600">This course does not exist or is no longer available.</p>
      <Link to="/courses" className="mt-8 inline-block rounded-lg bg-brand-800 px-6 py-3 font-semibold text-white hover:bg-brand-700">
        Browse Courses
      </Link>
    </section>
  );
}

function LessonPlayer({
  lesson,
  onClose,
  completed,
  onComplete,
}: {
  lesson: Lesson;
  onClose: () => void;
  completed: boolean;
  onComplete?: () => void;
}) {
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={lesson.title}
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/80 p-4"
    >
      <div className="w-full max-w-3xl rounded-2xl bg-white p-4">
        <div className="mb-3 flex items-center justify-between gap-4">
          <h2 className="font-bold text-gray-900">{lesson.title}</h2>
          <button type="button" onClick={onClose} className="rounded-md px-3 py-1 text-sm font-semibold text-brand-800 hover:bg-brand-50">
            Close
          </button>
        </div>
        <video src={lesson.video_url ?? undefined} controls autoPlay playsInline className="aspect-video w-full rounded-lg bg-black" />
        <div className="mt-3 flex justify-end">
          {completed ? (
            <span className="text-sm font-semibold text-green-700">✓ Completed</span>
          ) : (
            onComplete && (
              <button
                type="button"
                onClick={onComplete}
                className="rounded-lg bg-brand-800 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
              >
                Mark as complete
              </button>
            )
          )}
        </div>
      </div>
    </div>
  );
}

export default function CourseDetailPage({ loaderData }: Route.ComponentProps) {
  const viewer = useRootData()?.viewer;
  const revalidator = useRevalidator();
  const [playing, setPlaying] = useState<Lesson | null>(null);
  const { course, lessons, progress } = loaderData;
  if (!course) return <CourseNotFound />;
  const state = enrolState(viewer?.member?.membership_tier ?? null, course.tier);
  const completed = new Set(progress?.completed_lesson_ids ?? []);

  // Enrols on the server (idempotent), then shows the member's progress.
  async function startLearning() {
    const result = await postJson(`/api/courses/${encodeURIComponent(course!.id)}/enrol`);
    if (!result.ok) {
      toast.error(result.data.detail || 'Could not enrol in this course. Please try again.');
      return;
    }
    toast.success('Enrolled successfully!');
    await revalidator.revalidate();
  }

  async function completeLesson(lesson: Lesson) {
    const result = await postJson<CourseProgress>(`/api/lessons/${encodeURIComponent(lesson.id)}/complete`);
    if (!result.ok) {
      toast.error(result.data.detail || 'Could not save your progress. Please try again.');
      return;
    }
    toast.success(result.data.certificate_code ? 'Course complete! Your certificate is ready on your dashboard.' : 'Lesson completed');
    await revalidator.revalidate();
  }

  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 px-4 py-12 text-white">
        <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-2 lg:items-center">
          <div>
            <Link to="/courses" className="text-sm text-gold-100 hover:text-white">
              ← Back to Courses
            </Link>
            <div className="mt-4">
              <TierBadge tier={course.tier} />
            </div>
            <h1 className="mt-3 text-3xl font-extrabold sm:text-4xl">{course.title}</h1>
            <p className="mt-4 text-gold-100">{course.description}</p>
            <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
              <li>Duration: {course.duration}</li>
              <li>{course.lesson_count} lessons</li>
              <li>Certificate included</li>
              <li>Instructor: {course.instructor}</li>
            </ul>
            <div className="mt-8">
              <CourseMainAction state={state} onStartLearning={startLearning} />
            </div>
            {progress?.enrolled && (
              <div className="mt-6 max-w-sm" data-testid="course-progress">
                <div className="flex justify-between text-sm">
                  <span>Your progress</span>
                  <span>{progress.progress_percent}%</span>
                </div>
                <div
                  className="mt-1 h-2 rounded-full bg-white/30"
                  role="progressbar"
                  aria-label="Course progress"
                  aria-valuenow={progress.progress_percent}
                  aria-valuemin={0}
                  aria-valuemax={100}
                >
                  <div className="h-2 rounded-full bg-gold-400" style={{ width: `${progress.progress_percent}%` }} />
                </div>
                {progress.certificate_code && (
                  <Link
                    to={`/certificates/${progress.certificate_code}`}
                    className="mt-2 inline-block text-sm font-semibold text-gold-300 underline"
                  >
                    View your certificate
                  </Link>
                )}
              </div>
            )}
          </div>
          <img src={course.thumbnail} alt="" width={640} height={360} className="aspect-video w-full rounded-2xl object-cover shadow-xl" />
        </div>
      </section>
      <section className="mx-auto max-w-4xl px-4 py-12">
        <h2 className="text-2xl font-bold text-gray-900">Course Curriculum</h2>
        {lessons.length === 0 ? (
          <p className="mt-6 text-gray-500">Course curriculum coming soon...</p>
        ) : (
          <Accordion
            className="mt-6"
            items={lessons.map((lesson, index) => ({
              key: lesson.id,
              header: (
                <span className="flex items-center gap-3">
                  <span className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-brand-50 text-sm font-bold text-brand-800">
                    {index + 1}
                  </span>
                  <span className="flex-1">
                    {lesson.title}
                    {completed.has(lesson.id) && <span className="ml-2 text-sm text-green-700">✓ Completed</span>}
                  </span>
                  <span className="text-sm font-normal text-gray-500">{lesson.duration}</span>
                </span>
              ),
              body: (
                <div>
                  <p>{lesson.description}</p>
                  {/* SPEC 6: the video button only for a signed-in, entitled member; the API sends video_url only then. */}
                  {lesson.video_url && state === 'entitled' && (
                    <button
                      type="button"
                      onClick={() => setPlaying(lesson)}
                      className="mt-4 rounded-lg bg-gold-400 px-4 py-2 text-sm font-semibold text-brand-900 hover:bg-gold-300"
                    >
                      Watch Lesson
                    </button>
                  )}
                  {progress?.enrolled && !completed.has(lesson.id) && (
                    <button
                      type="button"
                      onClick={() => completeLesson(lesson)}
                      className="ml-3 mt-4 rounded-lg border border-brand-800 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
                    >
                      Mark as complete
                    </button>
                  )}
                </div>
              ),
            }))}
          />
        )}
        <Link to="/courses" className="mt-10 inline-block font-semibold text-brand-800 hover:text-brand-600">
          ← Browse all courses
        </Link>
      </section>
      {playing && (
        <LessonPlayer
          lesson={playing}
          onClose={() => setPlaying(null)}
          completed={completed.has(playing.id)}
          onComplete={progress?.enrolled ? () => completeLesson(playing) : undefined}
        />
      )}
    </>
  );
}
