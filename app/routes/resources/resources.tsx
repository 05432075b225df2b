import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { requestServicesContext } from '#request-context';
import { RESOURCE_TYPE_LABEL, RESOURCE_TYPES, type Resource } from '../../../common/catalogue.ts';
import { matchesSearch } from '../../../common/search.ts';
import { TIER_LABEL } from '../../../common/tiers.ts';
import { ListResults } from '../../components/catalogue/list-results.tsx';
import { SearchFilters } from '../../components/catalogue/search-filters.tsx';
import { CallToAction } from '../../components/ui/call-to-action.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { loadList } from '../../lib/load-list.ts';
import { pageMeta } from '../../lib/meta.ts';
import { useApiList } from '../../lib/use-api-list.ts';
import { useRootData } from '../../root.tsx';
import type { Route } from './+types/resources';

export const meta = () =>
  pageMeta({
    title: 'Resources & Tools',
    description: 'Daily tips, eBooks, workbooks, articles and market reports for real estate professionals.',
    path: '/resources',
  });

export async function loader({ context }: Route.LoaderArgs) {
  return { resources: await loadList<Resource>(context.get(requestServicesContext), '/api/resources') };
}

function ResourceCard({ resource, signedIn }: { resource: Resource; signedIn: boolean }) {
  const [showDetails, setShowDetails] = useState(false);
  const locked = resource.tier_required !== 'free';
  return (
    <article className="flex flex-col rounded-2xl border border-gray-200 bg-white p-5 shadow-sm">
      <span className="self-start rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-800">
        {RESOURCE_TYPE_LABEL[resource.resource_type]}
      </span>
      <h2 className="mt-3 text-lg font-bold text-gray-900">{resource.title}</h2>
      <p className="mt-2 flex-1 text-sm text-gray-600">{resource.description}</p>
      {locked && <p className="mt-3 text-sm font-medium text-gold-600">🔒 {TIER_LABEL[resource.tier_required]} membership required</p>}
      {resource.download_url ? (
        <a
          href={resource.download_url}
          download
          className="mt-4 inline-flex justify-center rounded-lg bg-brand-800 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
        >
          Download
        </a>
      ) : (
        <button
          type="button"
          aria-expanded={showDetails}
          onClick={() => setShowDetails((open) => !open)}
          className="mt-4 rounded-lg border border-brand-800 px-4 py-2.5 text-sm font-semibold text-brand-800 hover:bg-brand-50"
        >
          View Details
        </button>
      )}
      {showDetails && (
        <div className="mt-3 rounded-lg bg-gray-50 p-3 text-sm text-gray-700">
          {resource.has_download ? (
            <>
              This {RESOURCE_TYPE_LABEL[resource.resource_type].toLowerCase()} is included with {TIER_LABEL[resource.tier_required]}{' '}
              membership and above.{' '}
              <Link to={signedIn ? '/pricing' : '/signup'} className="font-semibold text-brand-800 underline">
                {signedIn ? 'Upgrade your plan' : 'Create a free account'}
              </Link>
            </>
          ) : (
            <>Read it right here: {resource.description}</>
          )}
        </div>
      )}
    </article>
  );
}

export default function ResourcesPage({ loaderData }: Route.ComponentProps) {
  const signedIn = Boolean(useRootData()?.viewer.member);
  const { items: resources, loading } = useApiList(loaderData.resources, '/api/resources');
  const [search, setSearch] = useState('');
  const [type, setType] = useState('all');
  const visible = useMemo(
    () => resources.filter((resource) => matchesSearch(resource, search) && (type === 'all' || resource.resource_type === type)),
    [resources, search, type],
  );

  return (
    <>
      <PageHeader
        title="Resources & Tools"
        subtitle="Scripts, templates, guides and market reports to put to work in your business today."
      />
      <section className="mx-auto max-w-7xl px-4 py-10">
        <SearchFilters
          search={search}
          onSearch={setSearch}
          searchLabel="Search resources..."
          selects={[
            {
              id: 'type-filter',
              label: 'Type',
              value: type,
              onChange: setType,
              options: [{ value: 'all', label: 'All Types' }, ...RESOURCE_TYPES.map((t) => ({ value: t, label: RESOURCE_TYPE_LABEL[t] }))],
            },
          ]}
        />
        <ListResults
          loading={loading}
          loadingText="Loading resources..."
          count={visible.length}
          noun="resource"
          emptyText="No resources found"
        >
          {visible.map((resource) => (
            <ResourceCard key={resource.id} resource={resource} signedIn={signedIn} />
          ))}
        </ListResults>
      </section>
      <CallToAction
        title="Want Access to Premium Resources?"
        text="Bronze, Silver and Gold members download every template, workbook and market report for offline use."
        actions={[{ to: '/pricing', label: 'View Membership Plans' }]}
      />
    </>
  );
}
