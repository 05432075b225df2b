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

const noPage = (message: string) => data({ result: null, message }, { status: 404 });

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = pageServices(context);
  const query = EpisodePageQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return noPage(query.error.issues[0]?.message ?? 'There is no such page of episodes.');
  const found = await attempt(() => services.podcast.page(query.data.page));
  if (!found.ok) return noPage(found.message);
  return { result: found.value, message: null };
}

export const meta = ({ loaderData }: Route.MetaArgs) =>
  pageMeta({
    title: loaderData?.result && loaderData.result.page > 1 ? `All Episodes, page ${loaderData.result.page}` : 'All Episodes',
    description: `Every episode of the ${BRAND_NAME} Coaching Podcast, newest first.`,
    path: '/podcast/episodes',
  });

/** 'Newer episodes' and 'Older episodes', with where the reader is. */
function Pager({ page, pages }: { page: number; pages: number }) {
  if (pages <= 1) return null;
  const to = (target: number) => (target === 1 ? '/podcast/episodes' : `/podcast/episodes?page=${target}`);
  return (
    <nav aria-label="Episode pages" className="mt-10 flex flex-wrap items-center justify-center gap-4">
      {page > 1 && (
        <Link to={to(page - 1)} className={buttonClass({ variant: 'outline', size: 'sm' })}>
          ← Newer episodes
        </Link>
      )}
      <span className="text-sm text-gray-600">
        Page {page} of {pages}
      </span>
      {page < pages && (
        <Link to={to(page + 1)} className={buttonClass({ variant: 'outline', size: 'sm' })}>
          Older episodes →
        </Link>
      )}
    </nav>
  );
}

export default function EpisodesPage({ loaderData }: Route.ComponentProps) {
  const { result, message } = loaderData;
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
            <p className="text-sm text-gray-600">{result.total === 1 ? '1 episode' : `${result.total} episodes`}</p>
            <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {result.episodes.map((episode) => (
                <EpisodeCard key={episode.id} episode={episode} />
              ))}
            </div>
            <Pager page={result.page} pages={result.pages} />
          </>
        )}
        <p className="mt-10 text-center">
          <Link to="/podcast" className="font-semibold text-brand-800 hover:text-brand-600">
            ← Back to the podcast
          </Link>
        </p>
      </section>
    </>
  );
}
