import { useEffect, useMemo, useState } from 'react';
import { CircleCheck, CloudDownload, Copy, Lock } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from '../../lib/toast.tsx';
import { canSaveOffline, pruneDownloads, removeDownload, saveDownload } from '../../lib/offline-downloads.ts';
import { RESOURCE_TYPE_LABEL, RESOURCE_TYPES, type Resource } from '../../../common/resources.contract.ts';
import { matchesSearch } from '../../../common/search.ts';
import { maySaveOffline, showsTierLock } from '../../../common/policies.ts';
import { TIER_LABEL } from '../../../common/tiers.ts';
import { ListResults } from '../../components/catalogue/list-results.tsx';
import { SearchFilters } from '../../components/catalogue/search-filters.tsx';
import { CallToAction } from '../../components/ui/call-to-action.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { buttonClass, Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { pageMeta } from '../../lib/meta.ts';
import { orFallback, pageServices } from '../../lib/page-context.ts';
import { useRootData } from '../../lib/root-data.ts';
import type { Route } from './+types/resources';

export const meta = () =>
  pageMeta({
    title: 'Resources & Tools',
    description: 'Daily tips, eBooks, workbooks, articles and market reports for real estate professionals.',
    path: '/resources',
  });

export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer } = pageServices(context);
  return { resources: await orFallback(services.resources.list(viewer), [], 'resources') };
}

/** A daily tip is its text: 'View Details' shows all of it, and copies it for a message or a post. */
function TipDetails({ resource }: { resource: Resource }) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 rounded-lg bg-gray-50 p-3 text-sm text-gray-700">
      <span className="flex-1">Use it today: share it with a client or your team.</span>
      <Button
        variant="ghost"
        size="sm"
        onClick={() =>
          void navigator.clipboard.writeText(`${resource.title}\n\n${resource.description}`).then(
            () => toast.success('Tip copied'),
            () => toast.error('Could not copy the tip. Select the text and copy it instead.'),
          )
        }
      >
        <Copy aria-hidden="true" className="mr-1.5 h-4 w-4" />
        Copy tip
      </Button>
    </div>
  );
}

/** Why a member cannot download this yet, and the way to it. */
function LockedDetails({ resource, signedIn }: { resource: Resource; signedIn: boolean }) {
  return (
    <div className="mt-3 rounded-lg bg-gray-50 p-3 text-sm text-gray-700">
      {`This ${RESOURCE_TYPE_LABEL[resource.resource_type].toLowerCase()} is included with ${TIER_LABEL[resource.tier_required]} membership and above. `}
      <Link to={signedIn ? '/pricing' : '/signup'} className="font-semibold text-brand-800 underline">
        {signedIn ? 'Upgrade your plan' : 'Create a free account'}
      </Link>
    </div>
  );
}

/** 'Save for offline' / 'Saved for offline' for a download the member's plan includes. */
function SaveForOffline({ url, saved, onChange }: { url: string; saved: boolean; onChange: () => void }) {
  const [busy, setBusy] = useState(false);
  const run = (work: () => Promise<void>, done: string) => {
    setBusy(true);
    work()
      .then(() => toast.success(done))
      .catch(() => toast.error('Could not save it for offline use. Check your connection and try again.'))
      .finally(() => {
        setBusy(false);
        onChange();
      });
  };
  return saved ? (
    <div className="mt-2 flex items-center justify-between gap-2 text-sm">
      <span className="flex items-center gap-1.5 font-medium text-green-700">
        <CircleCheck aria-hidden="true" className="h-4 w-4" />
        Saved for offline
      </span>
      <Button variant="ghost" size="sm" disabled={busy} onClick={() => run(() => removeDownload(url), 'Removed from this device')}>
        Remove
      </Button>
    </div>
  ) : (
    <Button
      variant="outline"
      size="sm"
      className="mt-2"
      disabled={busy}
      onClick={() => run(() => saveDownload(url), 'Saved for offline use')}
    >
      <CloudDownload aria-hidden="true" className="mr-1.5 h-4 w-4" />
      {busy ? 'Saving...' : 'Save for offline'}
    </Button>
  );
}

/** The downloads saved on this device, after removing those the member's plan no longer includes. */
function useSavedDownloads(resources: Resource[], savesOffline: boolean) {
  const [saved, setSaved] = useState<Set<string>>(new Set());
  const [checked, setChecked] = useState(0);
  useEffect(() => {
    const allowed = new Set(savesOffline ? resources.map((resource) => resource.download_url).filter(canSaveOffline) : []);
    void pruneDownloads(allowed).then(setSaved);
  }, [resources, savesOffline, checked]);
  return [saved, () => setChecked((count) => count + 1)] as const;
}

function ResourceCard({
  resource,
  signedIn,
  offline,
}: {
  resource: Resource;
  signedIn: boolean;
  offline: { saved: boolean; onChange: () => void } | null;
}) {
  const [showDetails, setShowDetails] = useState(false);
  const locked = showsTierLock(resource.tier_required);
  return (
    <Card as="article" className="flex flex-col">
      <span className="self-start rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-800">
        {RESOURCE_TYPE_LABEL[resource.resource_type]}
      </span>
      <h2 className="mt-3 text-lg font-bold text-gray-900">{resource.title}</h2>
      {/* Folded to three lines until 'View Details' shows the rest. */}
      <p className={`mt-2 flex-1 whitespace-pre-line text-sm text-gray-600 ${showDetails ? '' : 'line-clamp-3'}`}>{resource.description}</p>
      {locked && (
        <p className="mt-3 flex items-center gap-1.5 text-sm font-medium text-gold-700">
          <Lock aria-hidden="true" className="h-4 w-4 shrink-0" />
          {`${TIER_LABEL[resource.tier_required]} membership required`}
        </p>
      )}
      {resource.download_url ? (
        <>
          <a href={resource.download_url} download className={buttonClass({ size: 'sm', className: 'mt-4' })}>
            Download
          </a>
          {offline && <SaveForOffline url={resource.download_url} {...offline} />}
        </>
      ) : (
        <Button variant="outline" size="sm" className="mt-4" aria-expanded={showDetails} onClick={() => setShowDetails((open) => !open)}>
          View Details
        </Button>
      )}
      {showDetails &&
        (resource.has_download ? <LockedDetails resource={resource} signedIn={signedIn} /> : <TipDetails resource={resource} />)}
    </Card>
  );
}

export default function ResourcesPage({ loaderData }: Route.ComponentProps) {
  const viewer = useRootData()?.viewer;
  const signedIn = Boolean(viewer?.member);
  const { resources } = loaderData;
  const savesOffline = viewer !== undefined && maySaveOffline(viewer);
  const [saved, recheck] = useSavedDownloads(resources, savesOffline);
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
      <section className="mx-auto max-w-6xl px-4 py-10">
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
        <ListResults count={visible.length} noun="resource" emptyText="No resources found">
          {visible.map((resource) => (
            <ResourceCard
              key={resource.id}
              resource={resource}
              signedIn={signedIn}
              offline={
                savesOffline && canSaveOffline(resource.download_url)
                  ? { saved: saved.has(resource.download_url), onChange: recheck }
                  : null
              }
            />
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
