import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { data, Link, useFetcher } from 'react-router';
import { toast } from '../../lib/toast.tsx';
import { DEFAULT_TIME_ZONE, formatDateInZone } from '../../../common/time-zones.ts';
import { COURSE_NOT_FOUND, CourseParams, type Lesson, TranscriptSearchQuery } from '../../../common/courses.contract.ts';
import { CourseFormInput, type CourseProgress } from '../../../common/learning.contract.ts';
import { CourseMainAction, enrolState } from '../../components/catalogue/course-actions.tsx';
import { EarlyAccessNote } from '../../components/catalogue/early-access-note.tsx';
import { TierBadge } from '../../components/catalogue/tier-badge.tsx';
import type { AnsweredSearch } from '../../components/learning/transcript-search.tsx';
import { Accordion } from '../../components/ui/accordion.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { attempt, formErrors, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { orFallback, pageServices } from '../../lib/page-context.ts';
import { useRootData } from '../../lib/root-data.ts';
import { responsiveImage } from '../../lib/responsive-image.ts';
import type { Route } from './+types/course-detail';

// The player comes once the page is alive and idle (so it is there, and kept for offline use, by the
// time a lesson is opened), not in the course page's first script.
const loadPlayer = () => import('../../components/learning/lesson-player.tsx');
const LessonPlayer = lazy(() => loadPlayer().then((module) => ({ default: module.LessonPlayer })));

/** Fetches the player when the page is idle. */
function usePlayerReady() {
  useEffect(() => {
    const idle =
      window.requestIdleCallback?.(() => void loadPlayer(), { timeout: 3000 }) ?? window.setTimeout(() => void loadPlayer(), 1000);
    return () => {
      window.cancelIdleCallback?.(idle);
      window.clearTimeout(idle);
    };
  }, []);
}

// Only courses with captions show it, and only once the page is in use: not in every course page's first script.
const TranscriptSearch = lazy(() =>
  import('../../components/learning/transcript-search.tsx').then((module) => ({ default: module.TranscriptSearch })),
);

const notFound = () =>
  data({ course: null, lessons: [] as Lesson[], progress: null, transcriptSearch: null, unmetPrerequisite: null }, { status: 404 });

/** A search of the course's videos sent as a plain form (`?q=`), before the page's script ran: answered here. */
async function answeredSearch(
  { services, viewer }: ReturnType<typeof pageServices>,
  courseId: string,
  request: Request,
): Promise<AnsweredSearch | null> {
  const query = TranscriptSearchQuery.safeParse({ q: new URL(request.url).searchParams.get('q') ?? undefined });
  if (!query.success) return null;
  const found = await orFallback(services.courses.searchTranscripts(viewer, courseId, query.data.q), null, 'the transcript search');
  return found && { words: query.data.q, found };
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, viewer } = pageServices(context);
  const id = CourseParams.safeParse({ id: params.courseId });
  if (!id.success) return notFound();
  const course = await services.courses.find(viewer, id.data.id);
  if (!course) return notFound();
  const [lessons, progress, transcriptSearch, unmetPrerequisite] = await Promise.all([
    orFallback(services.courses.lessons(viewer, course.id), [], 'the curriculum'),
    viewer.member ? orFallback(services.learning.courseProgress(viewer, course.id), null, 'course progress') : null,
    answeredSearch({ services, viewer }, course.id, request),
    viewer.member ? orFallback(services.courses.unmetPrerequisite(viewer, course.id), null, 'the course it builds on') : null,
  ]);
  return { course, lessons, progress, transcriptSearch, unmetPrerequisite };
}

// Enrolling and completing a lesson are both forms, so they also work before the page's script runs.
export async function action({ request, context, params }: Route.ActionArgs) {
  const course = CourseParams.safeParse({ id: params.courseId });
  if (!course.success) return formErrors(COURSE_NOT_FOUND, 404);
  const form = await parseForm(CourseFormInput, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const intent = form.data;
  const done = await attempt(() =>
    intent.intent === 'enrol' ? services.learning.enrol(viewer, course.data.id) : services.learning.completeLesson(viewer, intent.lessonId),
  );
  if (!done.ok) return done.refusal;
  return { ok: true as const, intent: intent.intent, progress: done.value };
}

export const meta = ({ loaderData }: Route.MetaArgs) =>
  loaderData?.course
    ? pageMeta({ title: loaderData.course.title, description: loaderData.course.description, path: `/courses/${loaderData.course.id}` })
    : pageMeta({ title: 'Course not found', description: 'This course does not exist.' });

type CourseFormResult = ReturnType<typeof useFetcher<typeof action>>['data'];

const COURSE_COMPLETE = 'Course complete! Your certificate is ready on your dashboard.';

/** The toast for what a course form did (SPEC 8 'Enrolled successfully!'). */
function useCourseFormToasts(result: CourseFormResult) {
  useEffect(() => {
    if (!result) return;
    if (!result.ok) toast.error(result.formError ?? 'Could not save your progress. Please try again.');
    else if (result.intent === 'enrol') toast.success('Enrolled successfully!');
    else toast.success(result.progress.certificate_code ? COURSE_COMPLETE : 'Lesson completed');
  }, [result]);
}

/** The course's progress as the page knows it: the loader's, then what the player's reports answer. */
function useLiveProgress(loaded: CourseProgress | null) {
  const [progress, setProgress] = useState(loaded);
  const [loadedBefore, setLoadedBefore] = useState(loaded);
  if (loaded !== loadedBefore) {
    setLoadedBefore(loaded);
    setProgress(loaded);
  }
  const update = (next: CourseProgress) => {
    // Watching most of a video completes its lesson: said as 'Mark as complete' would say it.
    if (next.completed_lesson_ids.length > (progress?.completed_lesson_ids.length ?? 0)) {
      toast.success(next.certificate_code && !progress?.certificate_code ? COURSE_COMPLETE : 'Lesson completed');
    }
    setProgress(next);
  };
  return [progress, update] as const;
}

/**
 * A moment found by the catalogue's or the Help Center's search (`?lesson=…&at=…`) plays once the
 * page is alive, where the viewer may watch it; once, not again when the page's data is read again.
 */
function useMomentFromLink(lessons: Lesson[], open: (lesson: Lesson, start: number) => void) {
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    const link = new URLSearchParams(window.location.search);
    const lesson = lessons.find((each) => each.id === link.get('lesson'));
    const start = Number(link.get('at'));
    if (lesson?.video_url) open(lesson, Number.isFinite(start) && start > 0 ? start : 0);
  }, [lessons, open]);
}

/** When a dripped lesson opens, in the member's time ('Opens Tuesday, December 1'). */
function opensLabel(opens: NonNullable<Lesson['opens']>, zone: string | null | undefined): string {
  if (opens.at) return `Opens ${formatDateInZone(opens.at, zone ?? DEFAULT_TIME_ZONE)}`;
  return `Opens ${opens.days_after_start} ${opens.days_after_start === 1 ? 'day' : 'days'} after you start`;
}

/** The lesson a member goes on with: the first not yet complete, or (course finished) the first. */
function nextLessonToTake(lessons: Lesson[], progress: CourseProgress): Lesson | undefined {
  // A dripped lesson not open yet is passed over: 'Continue' goes to one that can be taken now.
  return lessons.find((lesson) => !progress.completed_lesson_ids.includes(lesson.id) && !lesson.opens) ?? lessons[0];
}

function CourseNotFound() {
  useEffect(() => {
    toast.error('Course not found');
  }, []);
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-extrabold text-brand-800">Course not found</h1>
      <p className="mt-4 text-gray-600">This course does not exist or is no longer available.</p>
      <ButtonLink to="/courses" className="mt-8">
        Browse Courses
      </ButtonLink>
    </section>
  );
}

type CourseFetcher = ReturnType<typeof useFetcher<typeof action>>;

/** 'Mark as complete' for one lesson, as a form. */
function CompleteLessonForm({ fetcher, lessonId, className }: { fetcher: CourseFetcher; lessonId: string; className?: string }) {
  return (
    <fetcher.Form method="post" className={className}>
      <input type="hidden" name="intent" value="complete" />
      <input type="hidden" name="lessonId" value={lessonId} />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
        Mark as complete
      </Button>
    </fetcher.Form>
  );
}

export default function CourseDetailPage({ loaderData }: Route.ComponentProps) {
  const viewer = useRootData()?.viewer;
  const fetcher = useFetcher<typeof action>();
  useCourseFormToasts(fetcher.data);
  const [playing, setPlaying] = useState<Lesson | null>(null);
  const [startAt, setStartAt] = useState<number | undefined>(undefined);
  const { course, lessons } = loaderData;
  const [progress, updateProgress] = useLiveProgress(loaderData.progress);
  const openAt = (lesson: Lesson, start: number) => {
    setStartAt(start);
    setPlaying(lesson);
  };
  useMomentFromLink(lessons, openAt);
  usePlayerReady();
  if (!course) return <CourseNotFound />;
  const state = enrolState(viewer, course);
  const completed = new Set(progress?.completed_lesson_ids ?? []);
  const goOn = progress?.enrolled ? nextLessonToTake(lessons, progress) : undefined;
  // What happens next: enrol once; then go on with the next lesson, or review a finished course.
  const { unmetPrerequisite } = loaderData;
  const startLearning = goOn ? (
    <Button variant="gold" onClick={() => setPlaying(goOn)}>
      {progress?.progress_percent === 100 ? 'Review course' : 'Continue'}
    </Button>
  ) : progress?.enrolled ? null : unmetPrerequisite ? (
    <p className="max-w-md rounded-lg bg-white/10 p-4 text-gold-100">
      Complete{' '}
      <Link to={`/courses/${unmetPrerequisite.id}`} className="font-semibold text-white underline">
        {unmetPrerequisite.title}
      </Link>{' '}
      first: this course builds on it.
    </p>
  ) : (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="enrol" />
      <Button type="submit" variant="gold" disabled={fetcher.state !== 'idle'}>
        Start Learning
      </Button>
    </fetcher.Form>
  );
  const playingIndex = playing ? lessons.findIndex((lesson) => lesson.id === playing.id) : -1;
  const nextLesson = lessons[playingIndex + 1] ?? null;
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 px-4 py-12 text-white">
        <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-2 lg:items-center">
          <div>
            <Link to="/courses" className="inline-flex min-h-11 items-center text-sm text-gold-100 hover:text-white">
              ← Back to Courses
            </Link>
            <div className="mt-4">
              <TierBadge tier={course.tier} />
              <EarlyAccessNote course={course} className="mt-2 text-gold-100" />
            </div>
            <h1 className="mt-3 text-3xl font-extrabold sm:text-4xl">{course.title}</h1>
            <p className="mt-4 text-gold-100">{course.description}</p>
            <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
              <li>Duration: {course.duration}</li>
              <li>{course.lesson_count} lessons</li>
              <li>Certificate included</li>
              <li>Instructor: {course.instructor}</li>
              {course.prerequisite && (
                <li>
                  Builds on:{' '}
                  <Link to={`/courses/${course.prerequisite.id}`} className="inline-flex min-h-11 items-center underline">
                    {course.prerequisite.title}
                  </Link>
                </li>
              )}
            </ul>
            <div className="mt-8">
              <CourseMainAction state={state} startLearning={startLearning} />
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
                    className="mt-2 inline-flex min-h-11 items-center text-sm font-semibold text-gold-300 underline"
                  >
                    View your certificate
                  </Link>
                )}
              </div>
            )}
          </div>
          <img
            {...responsiveImage(course.thumbnail, '(min-width: 1024px) 50vw, 100vw')}
            alt=""
            width={640}
            height={360}
            className="img-skeleton aspect-video w-full rounded-2xl object-cover shadow-xl"
          />
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
                    {lesson.opens && (
                      <span className="ml-2 text-sm font-normal text-gray-600">
                        🔒 {opensLabel(lesson.opens, viewer?.member?.time_zone)}
                      </span>
                    )}
                  </span>
                  <span className="text-sm font-normal text-gray-500">{lesson.duration}</span>
                </span>
              ),
              body: (
                <div>
                  <p>{lesson.description}</p>
                  {/* SPEC 6: the video button only for a signed-in, entitled member; the service sends video_url only then. */}
                  <div className="mt-4 flex flex-wrap gap-3">
                    {lesson.video_url && state === 'entitled' && (
                      <Button variant="gold" size="sm" onClick={() => setPlaying(lesson)}>
                        Watch Lesson
                      </Button>
                    )}
                    {lesson.kind === 'quiz' && state === 'entitled' && (
                      <Button variant="gold" size="sm" onClick={() => setPlaying(lesson)}>
                        {completed.has(lesson.id) ? 'See the quiz' : 'Take the quiz'}
                      </Button>
                    )}
                    {/* A lesson with video completes by watching it, a quiz by passing it; the others by saying so. */}
                    {progress?.enrolled && lesson.kind === 'video' && !lesson.has_video && !completed.has(lesson.id) && (
                      <CompleteLessonForm fetcher={fetcher} lessonId={lesson.id} />
                    )}
                  </div>
                </div>
              ),
            }))}
          />
        )}
        {lessons.some((lesson) => lesson.captions.length > 0) && (
          <Suspense fallback={null}>
            <TranscriptSearch
              courseId={course.id}
              answered={loaderData.transcriptSearch}
              onOpen={(lessonId, start) => {
                const lesson = lessons.find((each) => each.id === lessonId);
                if (lesson?.video_url) openAt(lesson, start);
              }}
            />
          </Suspense>
        )}
        <Link to="/courses" className="mt-10 inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600">
          ← Browse all courses
        </Link>
      </section>
      {playing && (
        <Suspense fallback={null}>
          <LessonPlayer
            lesson={playing}
            next={state === 'entitled' ? nextLesson : null}
            progress={state === 'entitled' ? progress : null}
            completeForm={progress?.enrolled ? <CompleteLessonForm fetcher={fetcher} lessonId={playing.id} /> : null}
            onClose={() => {
              setPlaying(null);
              setStartAt(undefined);
            }}
            onNext={() => {
              setPlaying(nextLesson);
              setStartAt(undefined);
            }}
            onProgress={updateProgress}
            startAt={startAt}
          />
        </Suspense>
      )}
    </>
  );
}
