import { Link } from 'react-router';
import { formatDate } from '../../../common/format.ts';
import { Card } from '../../components/ui/card.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { pageMeta } from '../../lib/meta.ts';
import { listPageOf, memberPageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/broadcasts';

export const meta = () => pageMeta({ title: 'News from RealtyPocket', description: 'The emails we sent to members, to read again.' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, viewer } = memberPageServices(context);
  const page = await services.broadcasts.past(viewer, listPageOf(request));
  return { broadcasts: page.items, next: page.next_cursor };
}

export default function Broadcasts({ loaderData }: Route.ComponentProps) {
  const { broadcasts, next } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">News from RealtyPocket</h1>
      {broadcasts.length === 0 ? (
        <p className="text-gray-700">No news yet: the emails we send to members appear here too.</p>
      ) : (
        <ul className="space-y-3">
          {broadcasts.map((broadcast) => (
            <Card as="li" key={broadcast.id} className="p-0">
              <Link to={`/broadcasts/${broadcast.id}`} className="block min-h-11 p-4">
                <span className="block font-semibold text-gray-900">{broadcast.subject}</span>
                <span className="text-sm text-gray-600">{formatDate(broadcast.sent_at)}</span>
              </Link>
            </Card>
          ))}
        </ul>
      )}
      <Pager param="before" next={next} label="Older news" />
    </div>
  );
}
