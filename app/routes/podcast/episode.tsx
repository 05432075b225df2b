import { data, Link } from 'react-router';
import { BRAND_NAME } from '../../../common/brand.ts';
import { EpisodeParams } from '../../../common/podcast.contract.ts';
import { EpisodeImage, episodeLine, episodePath } from '../../components/podcast/episode-card.tsx';
import { SpotifyPlayer } from '../../components/podcast/spotify-player.tsx';
import { buttonClass } from '../../components/ui/button.tsx';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/episode';

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = pageServices(context);
  const id = EpisodeParams.safeParse({ id: params.episodeId });
  const episode = id.success ? await services.podcast.find(id.data.id) : null;
  if (!episode) return data({ episode: null }, { status: 404 });
  return { episode };
}

export const meta = ({ loaderData }: Route.MetaArgs) =>
  loaderData?.episode
    ? pageMeta({ title: loaderData.episode.title, description: loaderData.episode.description, path: episodePath(loaderData.episode) })
    : pageMeta({ title: 'Episode not found', description: 'This episode does not exist.' });

export default function EpisodePage({ loaderData }: Route.ComponentProps) {
  const { episode } = loaderData;
  if (!episode) {
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-extrabold text-brand-800">Episode not found</h1>
        <p className="mt-4 text-gray-600">This episode does not exist or is no longer available.</p>
        <Link to="/podcast/episodes" className={buttonClass({ className: 'mt-8' })}>
          Browse all episodes
        </Link>
      </section>
    );
  }
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <Link to="/podcast/episodes" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600">
        ← All episodes
      </Link>
      <EpisodeImage src={episode.thumbnail} className="mt-4 rounded-2xl" />
      <p className="mt-6 text-sm text-gray-500">
        {BRAND_NAME} Coaching Podcast • {episodeLine(episode)}
      </p>
      <h1 className="mt-1 text-2xl font-extrabold text-gray-900 sm:text-3xl">{episode.title}</h1>
      <p className="mt-4 whitespace-pre-line text-gray-700">{episode.description}</p>
      <SpotifyPlayer episode={episode} />
    </article>
  );
}
