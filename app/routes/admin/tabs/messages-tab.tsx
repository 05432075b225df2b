import { Link, useFetcher } from 'react-router';
import { TIER_LABEL } from '../../../../common/tiers.ts';
import { z } from 'zod';
import { MessageParams, type ContactMessageRow } from '../../../../common/admin.contract.ts';
import { attempt, invalid, parseForm } from '../../../lib/forms.ts';
import { formatDateTime } from '../../../../common/format.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { listPageOf, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/messages-tab';

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const params = new URL(request.url).searchParams;
  const sort = params.get('sort') === 'priority' ? 'priority' : 'newest';
  const status = params.get('status') === 'open' ? 'open' : params.get('status') === 'replied' ? 'replied' : 'all';
  const page = await services.messages.list(viewer, { ...listPageOf(request), sort, status });
  return { messages: page.items, next: page.next_cursor, sort, status };
}

const SORTS = { newest: 'Newest first', priority: 'Priority first' } as const;
const STATUSES = { all: 'All', open: 'Not replied', replied: 'Replied' } as const;

const MarkHandled = z.object({ messageId: MessageParams.shape.id });

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await parseForm(MarkHandled, request);
  if (!form.ok) return invalid(form);
  const handled = await attempt(() => services.messages.markHandled(viewer, form.data.messageId));
  if (!handled.ok) return handled.refusal;
  return { ok: true as const };
}

function MessageItem({ message }: { message: ContactMessageRow }) {
  const fetcher = useFetcher<typeof action>();
  // Shown as handled as soon as it is sent; the loader confirms it.
  const handled = message.handled || fetcher.formData !== undefined || fetcher.data?.ok === true;
  return (
    <li className={`rounded-xl border p-4 ${handled ? 'border-gray-200 bg-gray-50' : 'border-gold-400 bg-white'}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-gray-900">
          {message.priority && (
            <span className="mr-2 rounded-full bg-brand-800 px-2 py-0.5 text-xs font-bold text-white">
              Priority · {message.sender_tier ? TIER_LABEL[message.sender_tier] : ''} member
            </span>
          )}
          {message.subject}
        </p>
        <p className="text-xs text-gray-500">{formatDateTime(message.created_at)}</p>
      </div>
      <p className="break-words text-sm text-gray-600">
        {message.name} &lt;{message.email}&gt;
      </p>
      <p className="mt-2 whitespace-pre-line break-words text-sm text-gray-800">{message.message}</p>
      {handled ? (
        <p className="mt-2 text-xs font-semibold text-green-700">Replied</p>
      ) : (
        <fetcher.Form method="post">
          <input type="hidden" name="messageId" value={message.id} />
          <button type="submit" className="mt-2 min-h-11 text-sm font-semibold text-brand-800 hover:text-brand-600">
            Mark replied
          </button>
        </fetcher.Form>
      )}
    </li>
  );
}

export default function MessagesTab({ loaderData }: Route.ComponentProps) {
  const { messages, next, sort, status } = loaderData;
  const link = (changes: Record<string, string>) => `?${new URLSearchParams({ sort, status, ...changes })}`;
  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Messages</h2>
      <p className="mt-1 text-sm text-gray-600">Messages from Silver and Gold members come with priority support: answer them first.</p>
      <nav aria-label="Order and filter" className="mt-3 flex flex-wrap gap-2 text-sm font-semibold">
        {[
          ...Object.entries(SORTS).map(([key, label]) => ({ param: { sort: key }, label, current: sort === key })),
          ...Object.entries(STATUSES).map(([key, label]) => ({ param: { status: key }, label, current: status === key })),
        ].map((choice) => (
          <Link
            key={choice.label}
            to={link(choice.param)}
            aria-current={choice.current ? 'page' : undefined}
            className={`inline-flex min-h-11 items-center rounded-lg px-3 ${choice.current ? 'bg-brand-800 text-white' : 'bg-white text-gray-700 ring-1 ring-gray-200'}`}
          >
            {choice.label}
          </Link>
        ))}
      </nav>
      <ul className="mt-4 space-y-3">
        {messages.map((message) => (
          <MessageItem key={message.id} message={message} />
        ))}
        {messages.length === 0 && <li className="text-sm text-gray-500">No messages yet.</li>}
      </ul>
      <Pager param="before" next={next} label="Older messages" />
    </section>
  );
}
