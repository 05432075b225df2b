import { Form, redirect, useActionData, useNavigation } from 'react-router';
import { TeamCheckoutInput } from '../../../common/teams.contract.ts';
import { TEAMS } from '../../../common/limits.ts';
import { formatCents, PAID_TIERS } from '../../../common/pricing.ts';
import { formatDate } from '../../../common/format.ts';
import { TIER_LABEL } from '../../../common/tiers.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Select } from '../../components/ui/field.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices, pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/new';

// SPEC 9's team pricing for 5 or more agents, bought online: a broker chooses the plan and the
// number of seats, and pays on Stripe's checkout; then invites their agents from /team.

export const meta = () => pageMeta({ title: 'Team plans', description: 'Memberships for your agents: 5 seats or more, one bill.' });

export async function loader({ context, request }: Route.LoaderArgs) {
  const quoteId = new URL(request.url).searchParams.get('quote');
  // An owner's offer link, opened before signing in: back here afterwards.
  if (quoteId && !pageServices(context).viewer.member)
    throw redirect(`/login?${new URLSearchParams({ join: `/team/new?${new URLSearchParams({ quote: quoteId })}` })}`);
  const { services, viewer } = memberPageServices(context);
  const team = await services.teams.myTeam(viewer);
  if (team?.active) throw redirect('/team');
  const quote = quoteId ? await attempt(() => services.teams.quote(viewer, quoteId)) : null;
  return {
    prices: await services.teams.prices(),
    billingEnabled: services.billing.enabled,
    quote: quote?.ok ? quote.value : null,
    quoteRefusal: quote && !quote.ok ? quote.message : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = memberPageServices(context);
  const form = await parseForm(TeamCheckoutInput, request);
  if (!form.ok) return invalid(form);
  const started = await attempt(() => services.teams.checkout(viewer, form.data));
  if (!started.ok) return started.refusal;
  throw redirect(started.value.url);
}

export default function NewTeam({ loaderData }: Route.ComponentProps) {
  const { prices, billingEnabled, quote, quoteRefusal } = loaderData;
  const refused = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const errors = refused && !refused.ok ? refused.fieldErrors : {};
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-8">
      <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">Memberships for your team</h1>
      <p className="text-gray-700">
        {TEAMS.minSeats} seats or more, one bill. Invite your agents by email: each agent holding a seat has the plan, and keeps their own
        account and progress.
      </p>
      {quoteRefusal && (
        <p role="alert" className="rounded-xl bg-gold-100 px-4 py-3 text-gray-900">
          {quoteRefusal}
        </p>
      )}
      {quote ? (
        <Card as="section" className="border-2 border-gold-400 p-5" data-testid="team-offer">
          <h2 className="font-bold text-gray-900">Your team offer</h2>
          <p className="mt-1 text-gray-800">
            {TIER_LABEL[quote.tier]} {quote.period}: {formatCents(quote.price_per_seat_cents)} per seat{' '}
            {quote.period === 'monthly' ? 'a month' : 'a year'}, until {formatDate(quote.expires_at, 'long')}.
          </p>
        </Card>
      ) : (
        <Card as="section" className="p-5">
          <h2 className="font-bold text-gray-900">Price per seat</h2>
          <ul className="mt-2 grid gap-1 text-sm text-gray-700 sm:grid-cols-3">
            {PAID_TIERS.map((tier) => (
              <li key={tier}>
                {TIER_LABEL[tier]}: {formatCents(prices[`${tier}_monthly`])}/month or {formatCents(prices[`${tier}_yearly`])}/year
              </li>
            ))}
          </ul>
        </Card>
      )}
      {!billingEnabled ? (
        <p className="rounded-xl bg-gold-100 px-4 py-3 text-gray-900">
          Online payment is not enabled on this site yet: contact us for team pricing.
        </p>
      ) : (
        <Form method="post" className="space-y-4">
          {refused && !refused.ok && refused.formError && (
            <p role="alert" className="text-sm text-red-700">
              {refused.formError}
            </p>
          )}
          <Input label="Team name" name="name" required maxLength={TEAMS.nameMax} error={errors.name} />
          {quote ? (
            <>
              <input type="hidden" name="quote_id" value={quote.id} />
              <input type="hidden" name="tier" value={quote.tier} />
              <input type="hidden" name="period" value={quote.period} />
            </>
          ) : (
            <>
              <Select
                label="Plan"
                name="tier"
                defaultValue="silver"
                options={PAID_TIERS.map((tier) => ({ value: tier, label: TIER_LABEL[tier] }))}
                error={errors.tier}
              />
              <Select
                label="Billing"
                name="period"
                defaultValue="monthly"
                options={[
                  { value: 'monthly', label: 'Monthly' },
                  { value: 'yearly', label: 'Yearly' },
                ]}
                error={errors.period}
              />
            </>
          )}
          <Input
            label="Seats"
            name="seats"
            type="number"
            min={TEAMS.minSeats}
            max={TEAMS.maxSeats}
            defaultValue={TEAMS.minSeats}
            required
            error={errors.seats}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Opening checkout...' : 'Buy seats'}
          </Button>
        </Form>
      )}
    </div>
  );
}
