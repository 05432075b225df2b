import { formatDateTime } from '../../../../common/format.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { listPageOf, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/activity-tab';

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const page = await services.audit.list(viewer, listPageOf(request));
  return { entries: page.items, next: page.next_cursor };
}

const show = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** Every admin change: who, what, when, and the old and new value. */
export default function ActivityTab({ loaderData }: Route.ComponentProps) {
  const { entries, next } = loaderData;
  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Activity</h2>
      <ul className="mt-4 space-y-3" data-testid="activity">
        {entries.map((entry) => (
          <li key={entry.id} className="rounded-xl border border-gray-200 p-4 text-sm">
            <p className="break-words">
              <span className="font-semibold text-gray-900">{entry.actor_email}</span> · {entry.action} · {entry.target}
            </p>
            <p className="text-xs text-gray-500">{formatDateTime(entry.created_at)}</p>
            <details className="mt-2">
              <summary className="cursor-pointer text-brand-800">Old and new value</summary>
              <p className="mt-1 break-all text-gray-600">Old: {show(entry.old_value)}</p>
              <p className="mt-1 break-all text-gray-800">New: {show(entry.new_value)}</p>
            </details>
          </li>
        ))}
        {entries.length === 0 && <li className="text-gray-500">No changes yet.</li>}
      </ul>
      <Pager param="before" next={next} label="Older changes" />
    </section>
  );
}
