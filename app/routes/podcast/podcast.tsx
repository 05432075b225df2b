import { Link } from 'react-router';
import { BRAND_NAME } from '../../../common/brand.ts';
import type { PodcastEpisode } from '../../../common/podcast.contract.ts';
import { spotifyShowUrl } from '../../../common/spotify.ts';
import { SpotifyPlayer } from '../../components/podcast/spotify-player.tsx';
import { episodePath } from '../../components/podcast/episode-card.tsx';
import { EditableText } from '../../components/editable/editable-text.tsx';
import { pageMeta } from '../../lib/meta.ts';
import { orFallback, pageContent, pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/podcast';
import { buttonClass } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';

export const meta = () =>
  pageMeta({
    title: 'Podcast',
    description: `The ${BRAND_NAME} Coaching Podcast: free episodes for real estate agents and brokers.`,
    path: '/podcast',
  });

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = pageServices(context);
  const [episodes, labels, show] = await Promise.all([
    orFallback(services.podcast.list(), [], 'podcast episodes'),
    pageContent(services, 'podcast_labels', 'the podcast labels'),
    pageContent(services, 'podcast_show', "the show's address"),
  ]);
  return { episodes, labels, showUrl: spotifyShowUrl(show.spotify_show_url) };
}

function EpisodePlayer({ episode, label, field }: { episode: PodcastEpisode; label: string; field: 'episode1_label' | 'episode2_label' }) {
  return (
    <Card as="article">
      <EditableText
        section="podcast_labels"
        field={field}
        value={label}
        as="p"
        className="text-sm font-semibold uppercase tracking-wide text-gold-600"
      />
      <h3 className="mt-1 text-lg font-bold text-gray-900">
        <Link to={episodePath(episode)} className="inline-flex min-h-11 items-center hover:text-brand-700">
          {episode.title}
        </Link>
      </h3>
      <p className="mt-1 text-sm text-gray-600">{episode.description}</p>
      <SpotifyPlayer episode={episode} />
    </Card>
  );
}

export default function PodcastPage({ loaderData }: Route.ComponentProps) {
  const { labels } = loaderData;
  const [latest, previous] = loaderData.episodes;
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 px-4 py-14 text-center text-white sm:py-20">
        <span className="inline-block rounded-full bg-gold-400 px-4 py-1 text-xs font-bold text-brand-900">
          FREE • All Episodes Available to Everyone
        </span>
        <h1 className="mt-4 text-3xl font-extrabold sm:text-5xl">{BRAND_NAME} Coaching Podcast</h1>
      </section>
      <section className="mx-auto max-w-6xl px-4 py-12">
        <div className="text-center">
          <EditableText
            section="podcast_labels"
            field="page_title"
            value={labels.page_title}
            as="h2"
            className="text-2xl font-bold text-gray-900 sm:text-3xl"
          />
          <EditableText section="podcast_labels" field="page_subtitle" value={labels.page_subtitle} as="p" className="mt-2 text-gray-600" />
        </div>
        <div className="mt-8 grid gap-6 md:grid-cols-2">
          {latest && <EpisodePlayer episode={latest} label={labels.episode1_label} field="episode1_label" />}
          {previous && <EpisodePlayer episode={previous} label={labels.episode2_label} field="episode2_label" />}
        </div>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/podcast/episodes" className={buttonClass({ variant: 'outline' })}>
            Browse Every Episode
          </Link>
          <a
            href={loaderData.showUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-block rounded-lg bg-green-700 px-6 py-3 font-semibold text-white hover:bg-green-800"
          >
            View All Episodes on Spotify
          </a>
        </div>
      </section>
      <section className="mx-auto mb-16 max-w-6xl px-4">
        <div className="flex flex-wrap justify-center gap-3 rounded-3xl bg-brand-50 px-6 py-10">
          <Link to="/courses" className={buttonClass()}>
            Explore Courses
          </Link>
          <Link to="/pricing" className={buttonClass({ variant: 'outline' })}>
            View Pricing
          </Link>
        </div>
      </section>
    </>
  );
}
