import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { TranscriptMatches } from '../../../common/courses.contract.ts';
import { clockTime } from '../../lib/clock-time.ts';

/** Fewer letters than this find too much to be of use. */
const SHORTEST_SEARCH = 3;
/** Searched once the member stops typing, not at every key. */
const TYPING_PAUSE_MS = 300;

const momentLink = (match: TranscriptMatches[number], start: number) =>
  `/courses/${encodeURIComponent(match.course_id)}?lesson=${encodeURIComponent(match.lesson_id)}&at=${Math.floor(start)}`;

/**
 * What the courses' videos say of the words searched (their transcripts), under a page's own
 * results: a link to each moment, which opens the course and plays the lesson from there; a lesson
 * above the viewer's plan is named as locked, its words never shown (the server sends none).
 */
export function VideoMomentsFound({ words }: { words: string }) {
  const wanted = words.trim();
  // What was found, and for which words: the answer to an earlier search is not shown for these.
  const [answer, setAnswer] = useState<{ words: string; found: TranscriptMatches }>({ words: '', found: [] });
  const found = answer.words === wanted ? answer.found : [];
  useEffect(() => {
    if (wanted.length < SHORTEST_SEARCH) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/transcript-search?q=${encodeURIComponent(wanted)}`, { signal: controller.signal })
        .then(async (response) => setAnswer({ words: wanted, found: response.ok ? ((await response.json()) as TranscriptMatches) : [] }))
        // Offline or a newer search: the page's own results stand alone.
        .catch(() => undefined);
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [wanted]);
  return (
    <div aria-live="polite">
      {found.length > 0 && (
        <section aria-labelledby="video-moments" className="mt-10">
          <h2 id="video-moments" className="text-xl font-bold text-gray-900">
            Said in the course videos
          </h2>
          <ul className="mt-3 space-y-3">
            {found.map((match) => (
              <li key={match.lesson_id} className="rounded-xl border border-gray-200 bg-white p-4">
                <p className="text-sm text-gray-600">{match.course_title}</p>
                <p className="font-semibold text-gray-900">
                  {match.lesson_title}
                  {match.locked && <span className="ml-2 text-sm font-normal text-gray-600">🔒 in a higher plan</span>}
                </p>
                {match.locked ? (
                  <Link
                    to={`/courses/${encodeURIComponent(match.course_id)}`}
                    className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline"
                  >
                    See the course
                  </Link>
                ) : (
                  <ul className="mt-1 space-y-1">
                    {(match.moments.length > 0 ? match.moments : [{ start: 0, text: 'Watch the lesson' }]).map((moment) => (
                      <li key={moment.start}>
                        <Link
                          to={momentLink(match, moment.start)}
                          className="inline-flex min-h-11 items-center text-sm text-brand-800 underline hover:text-brand-600"
                        >
                          {clockTime(moment.start)}: {moment.text}
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
