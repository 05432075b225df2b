import { useState } from 'react';
import type { TranscriptMatches } from '../../../common/courses.contract.ts';
import { clockTime } from '../../lib/clock-time.ts';
import { Button } from '../ui/button.tsx';

/** A search the page's loader answered (`?q=`): the form sent before this script ran, or a shared link. */
export interface AnsweredSearch {
  words: string;
  found: TranscriptMatches;
}

/**
 * Search of what the course's videos say (their transcripts): each lesson's moments, a button that
 * plays it from there; a lesson above the member's plan is named as locked, its words never shown.
 * A GET form: sent before the script runs, the page answers it.
 */
export function TranscriptSearch({
  courseId,
  answered,
  onOpen,
}: {
  courseId: string;
  answered: AnsweredSearch | null;
  onOpen: (lessonId: string, start: number) => void;
}) {
  const [words, setWords] = useState(answered?.words ?? '');
  const [found, setFound] = useState<TranscriptMatches | null>(answered?.found ?? null);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <section className="mt-8" aria-labelledby="transcript-search">
      <h3 id="transcript-search" className="text-lg font-bold text-gray-900">
        Search what the videos say
      </h3>
      <form
        method="get"
        role="search"
        className="mt-2 flex flex-wrap gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setProblem(null);
          void fetch(`/api/courses/${encodeURIComponent(courseId)}/transcript-search?q=${encodeURIComponent(words)}`)
            .then(async (response) => {
              if (!response.ok) return setProblem(((await response.json()) as { detail?: string }).detail ?? 'The search failed.');
              setFound((await response.json()) as TranscriptMatches);
            })
            .catch(() => setProblem('You seem to be offline: the search needs a connection.'));
        }}
      >
        <label htmlFor="transcript-words" className="sr-only">
          Words to find in the videos
        </label>
        <input
          id="transcript-words"
          name="q"
          type="search"
          value={words}
          onChange={(event) => setWords(event.currentTarget.value)}
          placeholder="Words to find in the videos"
          required
          className="min-h-11 min-w-0 flex-1 rounded-lg border border-gray-300 px-3"
        />
        <Button type="submit" size="sm">
          Search
        </Button>
      </form>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      {found && (
        <div role="status" className="mt-3">
          {found.length === 0 ? (
            <p className="text-sm text-gray-600">No video of this course says that.</p>
          ) : (
            <ul className="space-y-3">
              {found.map((lesson) => (
                <li key={lesson.lesson_id}>
                  <p className="font-semibold text-gray-900">
                    {lesson.lesson_title}
                    {lesson.locked && <span className="ml-2 text-sm font-normal text-gray-600">🔒 in a higher plan</span>}
                  </p>
                  <ul className="mt-1 space-y-1">
                    {lesson.moments.map((moment) => (
                      <li key={moment.start}>
                        <button
                          type="button"
                          onClick={() => onOpen(lesson.lesson_id, moment.start)}
                          className="min-h-11 text-left text-sm text-brand-800 underline hover:text-brand-600"
                        >
                          {clockTime(moment.start)}: {moment.text}
                        </button>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
