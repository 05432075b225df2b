import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { PodcastEpisode } from '../../../common/podcast.contract.ts';
import { responsiveImage } from '../../lib/responsive-image.ts';

/** An episode's own page. */
export const episodePath = (episode: Pick<PodcastEpisode, 'id'>) => `/podcast/episodes/${encodeURIComponent(episode.id)}`;

/** 'Season 2 • Episode 14 • 38:20' */
export const episodeLine = (episode: Pick<PodcastEpisode, 'season' | 'episode' | 'duration'>) =>
  `Season ${episode.season} • Episode ${episode.episode} • ${episode.duration}`;

/** SPEC 4: a podcast image that fails to load becomes a grey box. */
export function EpisodeImage({ src, className = '' }: { src: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // The image may have failed before the page became interactive, when onError was not yet
    // listening. decode() settles once the image is loaded or has failed (a copy chosen from
    // srcset may still be on its way at this point, so `complete` alone would mislead).
    image.current?.decode().catch(() => setFailed(true));
  }, []);
  const placeholder = `aspect-video w-full bg-gray-300 ${className}`;
  if (failed || !src) return <div className={placeholder} data-testid="image-placeholder" />;
  return (
    <img
      ref={image}
      {...responsiveImage(src, '(min-width: 768px) 33vw, 100vw')}
      alt=""
      width={640}
      height={360}
      onError={() => setFailed(true)}
      // On a visitor's plain page (no React) public/page-enhancer.js puts this box in its place.
      data-broken-class={placeholder}
      className={`img-skeleton aspect-video w-full object-cover ${className}`}
    />
  );
}

/** An episode as a card: the whole card opens the episode's page (its title is the link). */
export function EpisodeCard({ episode, line = episodeLine(episode) }: { episode: PodcastEpisode; line?: string }) {
  return (
    <article className="relative overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-gray-200 transition hover:shadow-md focus-within:ring-2 focus-within:ring-brand-700">
      <EpisodeImage src={episode.thumbnail} />
      <div className="p-5">
        <p className="text-xs text-gray-500">{line}</p>
        <h3 className="mt-1 font-bold text-gray-900">
          <Link to={episodePath(episode)} className="after:absolute after:inset-0 hover:text-brand-700 focus:outline-none">
            {episode.title}
          </Link>
        </h3>
        <p className="mt-2 line-clamp-3 text-sm text-gray-600">{episode.description}</p>
      </div>
    </article>
  );
}
