import { Link, useFetcher } from 'react-router';
import { TIER_LABEL } from '../../../../common/tiers.ts';
import { z } from 'zod';
import { MessageParams, type ContactMessageRow } from '../../../../common/admin.contract.ts';
import type { ReactNode } from 'react';
import { attempt, centsFromDollars, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { formatDate, formatDateTime } from '../../../../common/format.ts';
import { TEAMS } from '../../../../common/limits.ts';
import { BILLING_PERIODS, formatCents, PAID_TIERS } from '../../../../common/pricing.ts';
import { TeamQuoteInput, type TeamPrices, type TeamQuoteView } from '../../../../common/teams.contract.ts';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Select } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { listPageOf, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/messages-tab';

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const params = new URL(request.url).searchParams;
  const sort = params.get('sort') === 'priority' ? 'priority' : 'newest';
  const status = params.get('status') === 'open' ? 'open' : params.get('status') === 'replied' ? 'replied' : 'all';
  const page = await services.messages.list(viewer, { ...listPageOf(request), sort, status });
  // Owners answer a brokerage with a team offer; editors do not see the form (the service refuses them too).
  const quotes = await attempt(() =>
    services.teamsAdmin.quotesFor(
      viewer,
      page.items.map((message) => message.id),
    ),
  );
  return {
    messages: page.items,
    next: page.next_cursor,
    sort,
    status,
    quotes: quotes.ok ? quotes.value : null,
    defaultSeatPrices: quotes.ok ? await services.teamsAdmin.prices(viewer) : null,
  };
}

const SORTS = { newest: 'Newest first', priority: 'Priority first' } as const;
const STATUSES = { all: 'All', open: 'Not replied', replied: 'Replied' } as const;

const MarkHandled = z.object({ messageId: MessageParams.shape.id });

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  if (form.get('intent') === 'team-offer') {
    const input = TeamQuoteInput.safeParse({
      message_id: form.get('message_id'),
      tier: form.get('tier'),
      period: form.get('period'),
      price_per_seat_cents: centsFromDollars(form.get('price_per_seat')),
      valid_days: form.get('valid_days'),
    });
    if (!input.success) return refusedBy(input.error);
    const made = await attempt(() => services.teamsAdmin.makeQuote(viewer, input.data));
    return made.ok ? { ok: true as const, message: `The team offer is mailed to ${made.value.email}.` } : made.refusal;
  }
  const target = MarkHandled.safeParse({ messageId: form.get('messageId') });
  if (!target.success) return refusedBy(target.error);
  const handled = await attempt(() => services.messages.markHandled(viewer, target.data.messageId));
  if (!handled.ok) return handled.refusal;
  return { ok: true as const };
}

function TeamOffers({ message, quotes, prices }: { message: ContactMessageRow; quotes: TeamQuoteView[]; prices: TeamPrices }) {
  const fetcher = useFetcher<typeof action>();
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : {};
  return (
    <div className="mt-3 space-y-2">
      {quotes.map((quote) => (
        <p key={quote.id} className="text-xs text-gray-700" data-testid="team-offer-sent">
          Team offer: {TIER_LABEL[quote.tier]} {quote.period} at {formatCents(quote.price_per_seat_cents)} per seat, until{' '}
          {formatDate(quote.expires_at)}
          {quote.used ? ' · bought' : ''}
        </p>
      ))}
      <details>
        <summary className="inline-flex min-h-11 cursor-pointer items-center text-sm font-semibold text-brand-800">
          Make a team offer
        </summary>
        <fetcher.Form method="post" className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
          <input type="hidden" name="intent" value="team-offer" />
          <input type="hidden" name="message_id" value={message.id} />
          <Select
            compact
            label="Plan"
            name="tier"
            defaultValue="silver"
            options={PAID_TIERS.map((tier) => ({ value: tier, label: TIER_LABEL[tier] }))}
            error={errors.tier}
          />
          <Select
            compact
            label="Billing"
            name="period"
            defaultValue="monthly"
            options={BILLING_PERIODS.map((period) => ({ value: period, label: period === 'monthly' ? 'Monthly' : 'Yearly' }))}
            error={errors.period}
          />
          <Input
            compact
            label="Price per seat (dollars)"
            name="price_per_seat"
            type="number"
            min={1}
            step="0.01"
            required
            defaultValue={(prices.silver_monthly / 100).toFixed(2)}
            error={errors.price_per_seat_cents}
          />
          <Input
            compact
            label="Stands for (days)"
            name="valid_days"
            type="number"
            min={1}
            max={TEAMS.quoteMaxDays}
            required
            defaultValue={TEAMS.quoteDefaultDays}
            error={errors.valid_days}
          />
          <div className="col-span-2 sm:col-span-4">
            <Button type="submit" size="sm" disabled={fetcher.state !== 'idle'}>
              Mail the offer to {message.email}
            </Button>
          </div>
        </fetcher.Form>
        <Outcome answer={fetcher.data} />
      </details>
    </div>
  );
}

function MessageItem({ message, offers }: { message: ContactMessageRow; offers: ReactNode }) {
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
      {offers}
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
  const { messages, next, sort, status, quotes, defaultSeatPrices } = loaderData;
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
          <MessageItem
            key={message.id}
            message={message}
            offers={
              quotes &&
              defaultSeatPrices && (
                <TeamOffers
                  message={message}
                  quotes={quotes.filter((quote) => quote.contact_message_id === message.id)}
                  prices={defaultSeatPrices}
                />
              )
            }
          />
        ))}
        {messages.length === 0 && <li className="text-sm text-gray-500">No messages yet.</li>}
      </ul>
      <Pager param="before" next={next} label="Older messages" />
    </section>
  );
}
