import { data, Link } from 'react-router';
import { BRAND_NAME } from '../../../common/brand.ts';
import { EpisodePageQuery } from '../../../common/podcast.contract.ts';
import { EpisodeCard } from '../../components/podcast/episode-card.tsx';
import { buttonClass } from '../../components/ui/button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { attempt } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/episodes';

const notShown = (message: string, status: number) => data({ result: null, older: false, message }, { status });

// A page at a time, newest first, after the last episode shown (`?before=`, docs/decisions/013).
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = pageServices(context);
  const query = EpisodePageQuery.safeParse({ before: new URL(request.url).searchParams.get('before') ?? undefined });
  if (!query.success) return notShown(query.error.issues[0]?.message ?? 'This page link is not valid.', 400);
  const found = await attempt(() => services.podcast.page(query.data));
  if (!found.ok) return notShown(found.message, found.status);
  return { result: found.value, older: query.data.before !== undefined, message: null };
}

export const meta = ({ loaderData }: Route.MetaArgs) =>
  pageMeta({
    title: loaderData?.older ? 'All Episodes: older episodes' : 'All Episodes',
    description: `Every episode of the ${BRAND_NAME} Coaching Podcast, newest first.`,
    path: '/podcast/episodes',
  });

/** 'Older episodes' (after the last one shown) and back to the newest: plain links, which work without JavaScript. */
function Pager({ older, next }: { older: boolean; next: string | null }) {
  if (!older && !next) return null;
  return (
    <nav aria-label="Episode pages" className="mt-10 flex flex-wrap items-center justify-center gap-4">
      {older && (
        <Link to="/podcast/episodes" className={buttonClass({ variant: 'outline', size: 'sm' })}>
          ← Newest episodes
        </Link>
      )}
      {next && (
        <Link
          to={`/podcast/episodes?${new URLSearchParams({ before: next }).toString()}`}
          rel="next"
          className={buttonClass({ variant: 'outline', size: 'sm' })}
        >
          Older episodes →
        </Link>
      )}
    </nav>
  );
}

export default function EpisodesPage({ loaderData }: Route.ComponentProps) {
  const { result, older, message } = loaderData;
  return (
    <>
      <PageHeader title="All Episodes" subtitle={`Every episode of the ${BRAND_NAME} Coaching Podcast, newest first. Free for everyone.`} />
      <section className="mx-auto max-w-6xl px-4 py-12">
        {!result ? (
          <div className="text-center">
            <p className="text-gray-600">{message}</p>
            <Link to="/podcast/episodes" className={buttonClass({ className: 'mt-6' })}>
              Back to the newest episodes
            </Link>
          </div>
        ) : result.total === 0 ? (
          <p className="text-center text-gray-600">No episodes yet. The first one is on its way.</p>
        ) : (
          <>
            {/* The heading the cards' h3 titles sit under: the episode count, as before. */}
            <h2 className="text-sm font-normal text-gray-600">{result.total === 1 ? '1 episode' : `${result.total} episodes`}</h2>
            <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {result.episodes.map((episode) => (
                <EpisodeCard key={episode.id} episode={episode} />
              ))}
            </div>
            {older && result.episodes.length === 0 && <p className="mt-4 text-center text-gray-600">No older episodes.</p>}
            <Pager older={older} next={result.next_cursor} />
          </>
        )}
        <p className="mt-10 text-center">
          <Link to="/podcast" className="inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600">
            ← Back to the podcast
          </Link>
        </p>
      </section>
    </>
  );
}
