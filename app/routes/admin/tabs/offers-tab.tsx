import { useFetcher } from 'react-router';
import { formatDate } from '../../../../common/format.ts';
import { OFFERS } from '../../../../common/limits.ts';
import { OFFER_PLANS, OfferInput, OfferParams, TrialSettings, type OfferView } from '../../../../common/offers.contract.ts';
import { BILLING_PERIODS, formatCents, PAID_TIERS } from '../../../../common/pricing.ts';
import { TeamPrices } from '../../../../common/teams.contract.ts';
import { TIER_LABEL } from '../../../../common/tiers.ts';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmedForm } from '../../../components/ui/confirmed-form.tsx';
import { Input, Select } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { attempt, centsFromDollars, formErrors, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { listPageOf, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/offers-tab';

// Owners' offers and free trials: make an offer code (a discount for some plans, for the first
// payment, some months or for good, until a date or a number of uses), see each one's uses and what it
// brought, end one; set each tier's free trial and what a team plan's seat costs. Editors are refused
// by the service, and told so here.

const TEAM_PLANS = PAID_TIERS.flatMap((tier) => BILLING_PERIODS.map((period) => ({ tier, period, key: `${tier}_${period}` as const })));

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const [offers, trials, seatPrices] = await Promise.all([
    attempt(() => services.offersAdmin.list(viewer, listPageOf(request))),
    attempt(() => services.offersAdmin.trials(viewer)),
    attempt(() => services.teamsAdmin.prices(viewer)),
  ]);
  return {
    offers: offers.ok ? offers.value.items : [],
    next: offers.ok ? offers.value.next_cursor : null,
    trials: trials.ok ? trials.value : null,
    seatPrices: seatPrices.ok ? seatPrices.value : null,
    refusal: offers.ok ? null : offers.message,
    billingEnabled: services.billing.enabled,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const intent = form.get('intent');
  if (intent === 'trials') {
    const input = TrialSettings.safeParse(Object.fromEntries(PAID_TIERS.map((tier) => [tier, form.get(tier)])));
    if (!input.success) return refusedBy(input.error);
    const saved = await attempt(() => services.offersAdmin.setTrials(viewer, input.data));
    return saved.ok ? { ok: true as const, message: 'Free trials saved.' } : saved.refusal;
  }
  if (intent === 'team-prices') {
    const input = TeamPrices.safeParse(Object.fromEntries(TEAM_PLANS.map(({ key }) => [key, centsFromDollars(form.get(key))])));
    if (!input.success) return refusedBy(input.error);
    const saved = await attempt(() => services.teamsAdmin.setPrices(viewer, input.data));
    return saved.ok ? { ok: true as const, message: 'Seat prices saved: new teams and new seats are charged at them.' } : saved.refusal;
  }
  if (intent === 'end') {
    const target = OfferParams.safeParse({ id: form.get('offerId') });
    if (!target.success) return formErrors('Choose an offer.');
    const ended = await attempt(() => services.offersAdmin.end(viewer, target.data.id));
    return ended.ok ? { ok: true as const, message: `${ended.value.code} is ended: members who have it keep it.` } : ended.refusal;
  }
  const kind = form.get('discount_kind');
  const amount = form.get('discount');
  const input = OfferInput.safeParse({
    code: form.get('code'),
    name: form.get('name'),
    percent_off: kind === 'percent' ? amount : null,
    amount_off_cents: kind === 'amount' && typeof amount === 'string' && amount !== '' ? centsFromDollars(amount) : null,
    duration: form.get('duration'),
    duration_months: form.get('duration_months'),
    plans: form.getAll('plans'),
    ends_on: form.get('ends_on'),
    max_uses: form.get('max_uses'),
  });
  if (!input.success) return refusedBy(input.error);
  const made = await attempt(() => services.offersAdmin.create(viewer, input.data));
  return made.ok ? { ok: true as const, message: `${made.value.code} is ready: share /pricing?offer=${made.value.code}.` } : made.refusal;
}

const planLabel = (plan: string) => {
  const [tier, period] = plan.split('_') as [(typeof PAID_TIERS)[number], string];
  return `${TIER_LABEL[tier]} ${period}`;
};

function OfferRow({ offer }: { offer: OfferView }) {
  const fetcher = useFetcher<typeof action>();
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4" data-offer-code={offer.code}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-bold text-gray-900">
            {offer.code} <span className="font-normal text-gray-600">· {offer.name}</span>
          </p>
          <p className="text-sm text-gray-700">
            {offer.label} · {offer.plans.map(planLabel).join(', ')}
          </p>
          <p className="text-xs text-gray-600">
            {offer.uses}
            {offer.max_uses !== null && ` of ${offer.max_uses}`} uses · {formatCents(offer.revenue_cents)} brought
            {offer.ends_at && ` · until ${formatDate(offer.ends_at)}`}
            {' · '}
            <span className={offer.active ? 'font-semibold text-green-700' : 'text-gray-500'}>
              {offer.active ? 'Active' : offer.ended_at ? 'Ended' : 'Not usable'}
            </span>
          </p>
        </div>
        {offer.ended_at === null && (
          <ConfirmedForm
            fetcher={fetcher}
            question={`End ${offer.code}? Nobody can use it from now on; members who have it keep their discount.`}
            fields={{ intent: 'end', offerId: offer.id }}
          >
            <Button type="submit" size="sm" variant="outline">
              End offer
            </Button>
          </ConfirmedForm>
        )}
      </div>
      <Outcome answer={fetcher.data} />
    </li>
  );
}

export default function OffersTab({ loaderData }: Route.ComponentProps) {
  const { offers, next, trials, seatPrices, refusal, billingEnabled } = loaderData;
  const create = useFetcher<typeof action>();
  const trialForm = useFetcher<typeof action>();
  const seatForm = useFetcher<typeof action>();
  const seatErrors = seatForm.data && !seatForm.data.ok ? seatForm.data.fieldErrors : {};
  if (refusal) return <p className="rounded-xl bg-white p-6 text-gray-700">{refusal}</p>;
  const errors = create.data && !create.data.ok ? create.data.fieldErrors : {};
  return (
    <div className="space-y-8">
      {!billingEnabled && (
        <p className="rounded-xl bg-gold-100 px-4 py-3 text-gray-900">Payments are not enabled on this site yet: offers need Stripe.</p>
      )}
      <section aria-labelledby="trials-title" className="space-y-3">
        <h2 id="trials-title" className="text-lg font-bold text-gray-900">
          Free trials
        </h2>
        <p className="text-sm text-gray-700">Days free before the first payment, for members who never had a trial (0: none).</p>
        <trialForm.Form method="post" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="trials" />
          {PAID_TIERS.map((tier) => (
            <Input
              key={tier}
              compact
              label={TIER_LABEL[tier]}
              name={tier}
              type="number"
              min={0}
              max={OFFERS.maxTrialDays}
              defaultValue={trials?.[tier] ?? 0}
              className="w-28"
            />
          ))}
          <Button type="submit" size="sm" disabled={trialForm.state !== 'idle'}>
            Save trials
          </Button>
        </trialForm.Form>
        <Outcome answer={trialForm.data} />
      </section>

      <section aria-labelledby="seat-prices-title" className="space-y-3">
        <h2 id="seat-prices-title" className="text-lg font-bold text-gray-900">
          Team plans: price of a seat
        </h2>
        <p className="text-sm text-gray-700">
          In dollars, per seat and period. New teams and seats added are charged at these; a team keeps the price it bought at.
        </p>
        <seatForm.Form method="post" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <input type="hidden" name="intent" value="team-prices" />
          {TEAM_PLANS.map(({ tier, period, key }) => (
            <Input
              key={key}
              compact
              label={`${TIER_LABEL[tier]} ${period} seat`}
              name={key}
              type="number"
              min={1}
              step="0.01"
              required
              defaultValue={seatPrices ? (seatPrices[key] / 100).toFixed(2) : ''}
              error={seatErrors[key]}
            />
          ))}
          <div className="col-span-2 sm:col-span-3">
            <Button type="submit" size="sm" disabled={seatForm.state !== 'idle'}>
              Save seat prices
            </Button>
          </div>
        </seatForm.Form>
        <Outcome answer={seatForm.data} />
      </section>

      <section aria-labelledby="new-offer-title" className="space-y-3">
        <h2 id="new-offer-title" className="text-lg font-bold text-gray-900">
          Make an offer
        </h2>
        <create.Form method="post" className="grid gap-3 sm:grid-cols-2">
          <input type="hidden" name="intent" value="create" />
          <Input compact label="Code (what members type)" name="code" required maxLength={30} error={errors.code} />
          <Input compact label="Name" name="name" required maxLength={OFFERS.nameMax} error={errors.name} />
          <Select
            compact
            label="Discount"
            name="discount_kind"
            defaultValue="percent"
            options={[
              { value: 'percent', label: 'Percent off' },
              { value: 'amount', label: 'Amount off (dollars)' },
            ]}
          />
          <Input
            compact
            label="How much"
            name="discount"
            type="number"
            min={1}
            step="any"
            required
            error={errors.percent_off ?? errors.amount_off_cents}
          />
          <Select
            compact
            label="For"
            name="duration"
            defaultValue="once"
            options={[
              { value: 'once', label: 'The first payment' },
              { value: 'repeating', label: 'Some months' },
              { value: 'forever', label: 'As long as they stay' },
            ]}
            error={errors.duration}
          />
          <Input
            compact
            label="Months (for some months)"
            name="duration_months"
            type="number"
            min={1}
            max={OFFERS.maxMonths}
            error={errors.duration_months}
          />
          <Input compact label="Ends on (optional)" name="ends_on" type="date" error={errors.ends_on} />
          <Input
            compact
            label="Uses at most (optional)"
            name="max_uses"
            type="number"
            min={1}
            max={OFFERS.maxUses}
            error={errors.max_uses}
          />
          <fieldset className="sm:col-span-2">
            <legend className="text-sm font-semibold text-gray-800">Plans it applies to</legend>
            <div className="mt-1 flex flex-wrap gap-x-4">
              {OFFER_PLANS.map((plan) => (
                <label key={plan} className="flex min-h-11 items-center gap-2 text-sm text-gray-800">
                  <input type="checkbox" name="plans" value={plan} className="h-5 w-5" /> {planLabel(plan)}
                </label>
              ))}
            </div>
            {errors.plans && <p className="text-sm text-red-700">{errors.plans}</p>}
          </fieldset>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={create.state !== 'idle'}>
              {create.state === 'idle' ? 'Make offer' : 'Making...'}
            </Button>
          </div>
        </create.Form>
        <Outcome answer={create.data} />
      </section>

      <section aria-labelledby="offers-title" className="space-y-3">
        <h2 id="offers-title" className="text-lg font-bold text-gray-900">
          Offers
        </h2>
        {offers.length === 0 ? (
          <p className="text-sm text-gray-700">No offers yet.</p>
        ) : (
          <ul className="space-y-3">
            {offers.map((offer) => (
              <OfferRow key={offer.id} offer={offer} />
            ))}
          </ul>
        )}
        <Pager param="before" next={next} />
      </section>
    </div>
  );
}
