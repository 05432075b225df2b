import { useEffect, useRef, useState } from 'react';
import type { Transcript } from '../../../common/captions.contract.ts';
import { clockTime } from '../../lib/clock-time.ts';

/** The transcript under the video: each cue a button that goes to it; the one playing is marked and kept in view. */
export function LessonTranscript({
  source,
  language,
  video,
}: {
  /** The video's address on the API (a lesson's, a recording's): its transcript is under it. */
  source: string;
  language: string;
  video: React.RefObject<HTMLVideoElement | null>;
}) {
  const [cues, setCues] = useState<Transcript['cues'] | null>(null);
  const [playing, setPlaying] = useState(-1);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    let current = true;
    void fetch(`${source}/transcript?language=${language}`)
      .then((response) => (response.ok ? (response.json() as Promise<Transcript>) : null))
      .then((transcript) => current && setCues(transcript?.cues ?? []))
      .catch(() => current && setCues([]));
    return () => {
      current = false;
    };
  }, [source, language]);
  useEffect(() => {
    const element = video.current;
    if (!element || !cues) return;
    const follow = () => setPlaying(cues.findIndex((cue) => element.currentTime >= cue.start && element.currentTime < cue.end));
    element.addEventListener('timeupdate', follow);
    return () => element.removeEventListener('timeupdate', follow);
  }, [cues, video]);
  useEffect(() => {
    // The transcript scrolls within its own box, never the page the member is reading.
    const item = list.current?.children[playing] as HTMLElement | undefined;
    if (item && list.current) list.current.scrollTop = item.offsetTop - list.current.offsetTop - 8;
  }, [playing]);
  if (!cues || cues.length === 0) return null;
  return (
    <section aria-label="Transcript" className="mt-3">
      <h3 className="text-sm font-semibold text-gray-900">Transcript</h3>
      <ol ref={list} className="mt-1 max-h-48 space-y-1 overflow-y-auto rounded-lg border border-gray-200 p-2">
        {cues.map((cue, index) => (
          <li key={`${cue.start}-${index}`}>
            <button
              type="button"
              aria-current={index === playing ? 'true' : undefined}
              onClick={() => {
                if (video.current) video.current.currentTime = cue.start;
              }}
              className={`flex min-h-11 w-full gap-3 rounded px-2 py-1 text-left text-sm ${index === playing ? 'bg-gold-100 font-semibold text-gray-900' : 'text-gray-700 hover:bg-gray-50'}`}
            >
              <span className="shrink-0 tabular-nums text-gray-500">{clockTime(cue.start)}</span>
              <span>{cue.text}</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
