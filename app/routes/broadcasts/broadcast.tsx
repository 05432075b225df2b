import { data, Link } from 'react-router';
import { formatDate } from '../../../common/format.ts';
import { BroadcastBlocks } from '../../components/broadcasts/broadcast-blocks.tsx';
import { attempt } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/broadcast';

export const meta = ({ loaderData }: Route.MetaArgs) =>
  pageMeta({ title: loaderData?.broadcast?.subject ?? 'News', description: 'An email we sent to members.' });

export async function loader({ params, context }: Route.LoaderArgs) {
  const { services, viewer } = memberPageServices(context);
  const found = await attempt(() => services.broadcasts.read(viewer, params.id));
  if (!found.ok) return data({ broadcast: null, message: found.message }, { status: found.status });
  return { broadcast: found.value, message: null };
}

export default function Broadcast({ loaderData }: Route.ComponentProps) {
  const { broadcast, message } = loaderData;
  if (!broadcast)
    return (
      <div className="mx-auto max-w-3xl px-4 py-8">
        <p className="text-gray-700">{message}</p>
        <Link to="/broadcasts" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800">
          ← All news
        </Link>
      </div>
    );
  return (
    <article className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <Link to="/broadcasts" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800">
        ← All news
      </Link>
      <header>
        <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">{broadcast.subject}</h1>
        <p className="text-sm text-gray-600">{formatDate(broadcast.sent_at)}</p>
      </header>
      <BroadcastBlocks blocks={broadcast.blocks} />
    </article>
  );
}
