import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Lesson } from '../../../common/courses.contract.ts';
import type { CourseProgress } from '../../../common/learning.contract.ts';
import { POSITION_REPORT_SECONDS, WATCHED_TO_COMPLETE } from '../../../common/limits.ts';
import { clockTime } from '../../lib/clock-time.ts';
import { Button } from '../ui/button.tsx';

// A quiz is loaded with the first quiz lesson opened: most lessons are videos.
const QuizPanel = lazy(() => import('./quiz-panel.tsx').then((module) => ({ default: module.QuizPanel })));
// The transcript is read from the server anyway, so its code comes with it, not in the course page's first script.
const LessonTranscript = lazy(() => import('./lesson-transcript.tsx').then((module) => ({ default: module.LessonTranscript })));

/** Where to start a lesson's video: where the member stopped, unless that was (nearly) the end. */
function resumeAt(saved: number | undefined, duration: number): number {
  if (!saved || !Number.isFinite(duration)) return 0;
  return saved < duration * WATCHED_TO_COMPLETE ? saved : 0;
}

/**
 * Stores where the member is in the video; the answer is the course's progress, which includes the
 * lesson once most of it was watched. `keepalive` lets the last report leave with a closing page.
 */
async function reportPosition(lessonId: string, video: HTMLVideoElement, keepalive = false): Promise<CourseProgress | null> {
  if (!Number.isFinite(video.duration) || video.duration <= 0) return null;
  const response = await fetch(`/api/lessons/${encodeURIComponent(lessonId)}/position`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ position_seconds: Math.min(video.currentTime, video.duration), duration_seconds: video.duration }),
    keepalive,
  }).catch(() => null);
  return response?.ok ? ((await response.json()) as CourseProgress) : null;
}

// The member's choice of captions, kept on the device: the language shown, or 'off'.
const CAPTIONS_CHOICE = 'captions-language';

function chosenCaptions(captions: Lesson['captions']): Lesson['captions'][number] | undefined {
  const open = captions.filter((each) => each.url);
  if (open.length === 0) return undefined;
  const chosen = typeof localStorage === 'undefined' ? null : localStorage.getItem(CAPTIONS_CHOICE);
  if (chosen === 'off') return undefined;
  return open.find((each) => each.language === chosen) ?? open[0];
}

/** The lesson's video; for an enrolled member it resumes where they stopped and reports where they are. */
function LessonVideo({
  lesson,
  recording,
  savedPosition,
  moment,
  tracksProgress,
  onProgress,
}: {
  lesson: Lesson;
  /** A coaching session's recording: its transcript is the recording's. */
  recording: boolean;
  savedPosition: number | undefined;
  /** A moment the member chose (found in the transcripts): played from there, wherever it is. */
  moment: number | undefined;
  tracksProgress: boolean;
  onProgress: (progress: CourseProgress) => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  // The captions shown: the member's last choice on this device (the player opens only in the browser).
  const [captions, setCaptions] = useState(() => chosenCaptions(lesson.captions));
  useEffect(() => {
    for (const track of video.current?.textTracks ?? []) track.mode = track.language === captions?.language ? 'showing' : 'disabled';
    // Only as the video opens: later, the member's own choice in the player rules.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    const tracks = video.current?.textTracks;
    if (!tracks) return;
    // The member's choice in the player (captions on, off, another language) is remembered, and the
    // transcript follows the language shown.
    const remember = () => {
      const showing = [...tracks].find((track) => track.mode === 'showing');
      localStorage.setItem(CAPTIONS_CHOICE, showing?.language || 'off');
      if (showing) setCaptions(lesson.captions.find((each) => each.language === showing.language));
    };
    tracks.addEventListener('change', remember);
    return () => tracks.removeEventListener('change', remember);
  }, [lesson.captions]);
  const lastReported = useRef(0);
  // The saved position is read once, when the video's length is known; later saves must not seek.
  const startAt = useRef({ savedPosition, moment });
  const [resumedAt, setResumedAt] = useState(0);

  const report = (keepalive = false, element = video.current) => {
    if (!tracksProgress || !element) return;
    lastReported.current = element.currentTime;
    void reportPosition(lesson.id, element, keepalive).then((progress) => progress && onProgress(progress));
  };
  const reportRef = useRef(report);
  useEffect(() => {
    reportRef.current = report;
  });
  // Where the video starts, once its length is known: read in an effect, on the element mounted (a
  // player loaded on demand may have its metadata before the page shows it).
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const start = () => {
      const { savedPosition: saved, moment: chosen } = startAt.current;
      const at = chosen ?? resumeAt(saved, element.duration);
      if (at > 0) element.currentTime = at;
      lastReported.current = at;
      if (chosen === undefined) setResumedAt(at);
    };
    if (element.readyState >= HTMLMediaElement.HAVE_METADATA) start();
    else element.addEventListener('loadedmetadata', start, { once: true });
    return () => element.removeEventListener('loadedmetadata', start);
  }, []);
  // Closing the player (or moving to the next lesson) keeps where the member was. The element is
  // taken now: by the time the cleanup runs, React has let go of the ref.
  useEffect(() => {
    const element = video.current;
    return () => reportRef.current(true, element);
  }, []);

  return (
    <>
      {/* Captions, where the lesson has them, are its <track>s; a video without any says so below it. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
      <video
        ref={video}
        src={lesson.video_url ?? undefined}
        controls
        autoPlay
        playsInline
        preload="metadata"
        className="aspect-video w-full rounded-lg bg-black"
        onTimeUpdate={(event) => {
          if (Math.abs(event.currentTarget.currentTime - lastReported.current) >= POSITION_REPORT_SECONDS) report();
        }}
        onPause={() => report()}
        onEnded={() => report()}
      >
        {lesson.captions.map((each) =>
          each.url ? <track key={each.language} kind="captions" src={each.url} srcLang={each.language} label={each.label} /> : null,
        )}
      </video>
      {resumedAt > 0 && <p className="mt-2 text-sm text-gray-600">Picking up where you left off, at {clockTime(resumedAt)}.</p>}
      {lesson.captions.length === 0 && <p className="mt-2 text-sm text-gray-500">This video has no captions yet.</p>}
      {lesson.captions.some((each) => each.url) && (
        <Suspense fallback={null}>
          <LessonTranscript
            source={
              recording ? `/api/coaching/recordings/${encodeURIComponent(lesson.id)}` : `/api/lessons/${encodeURIComponent(lesson.id)}`
            }
            language={captions?.language ?? lesson.captions[0]!.language}
            video={video}
          />
        </Suspense>
      )}
    </>
  );
}

/**
 * The lesson player: a modal dialog (Escape closes it, focus goes back to the button that opened
 * it), the video or, for a lesson without one, its description and 'Mark as complete', or a quiz;
 * and the way on to the next lesson.
 */
export function LessonPlayer({
  lesson,
  next,
  progress,
  completeForm,
  onClose,
  onNext,
  onProgress,
  recording = false,
  startAt,
}: {
  lesson: Lesson;
  next: Lesson | null;
  /** The member's progress in the course, once enrolled (or entitled: watching enrols). */
  progress: CourseProgress | null;
  completeForm: ReactNode;
  onClose: () => void;
  onNext: () => void;
  onProgress: (progress: CourseProgress) => void;
  /** A coaching session's recording: played, with its notes, and nothing to complete. */
  recording?: boolean;
  /** Where to start the video (a moment found in the transcripts), in seconds. */
  startAt?: number;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = dialog.current;
    // A modal dialog takes the focus (its first button, 'Close') and keeps it inside until it closes.
    element?.showModal();
    return () => {
      if (element?.open) element.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const completed = progress?.completed_lesson_ids.includes(lesson.id) ?? false;
  return (
    <dialog
      ref={dialog}
      aria-labelledby="lesson-player-title"
      className="m-auto w-full max-w-3xl rounded-2xl bg-white p-4 backdrop:bg-black/80"
      // Escape: the page closes the player, so its state and the dialog agree.
      onCancel={(event) => {
        event.preventDefault();
        onCloseRef.current();
      }}
      onClose={() => onCloseRef.current()}
    >
      <div className="mb-3 flex items-center justify-between gap-4">
        <h2 id="lesson-player-title" className="font-bold text-gray-900">
          {lesson.title}
        </h2>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Close
        </Button>
      </div>
      {lesson.kind === 'quiz' ? (
        progress ? (
          <Suspense
            fallback={
              <p role="status" className="text-gray-600">
                Loading the quiz...
              </p>
            }
          >
            <QuizPanel key={lesson.id} lesson={lesson} onProgress={onProgress} />
          </Suspense>
        ) : (
          <p className="text-gray-700">{lesson.description}</p>
        )
      ) : lesson.video_url ? (
        <LessonVideo
          key={lesson.id}
          lesson={lesson}
          recording={recording}
          savedPosition={progress?.positions[lesson.id]}
          moment={startAt}
          tracksProgress={progress !== null}
          onProgress={onProgress}
        />
      ) : (
        <p className="text-gray-700">{lesson.description}</p>
      )}
      {recording && lesson.description && <p className="mt-3 whitespace-pre-line text-sm text-gray-700">{lesson.description}</p>}
      <div className="mt-3 flex flex-wrap items-center justify-end gap-3">
        {recording ? null : completed ? (
          <span className="text-sm font-semibold text-green-700">✓ Completed</span>
        ) : lesson.kind === 'quiz' ? (
          <span className="text-sm text-gray-500">Completes when you pass the quiz.</span>
        ) : lesson.video_url ? (
          <span className="text-sm text-gray-500">Completes when you have watched the video.</span>
        ) : (
          completeForm
        )}
        {next && (
          <Button variant={completed ? 'gold' : 'outline'} size="sm" onClick={onNext}>
            Next lesson: {next.title}
          </Button>
        )}
      </div>
    </dialog>
  );
}
