import { useEffect } from 'react';
import { Link, redirect, useFetcher } from 'react-router';
import { toast } from '../../lib/toast.tsx';
import { z } from 'zod';
import { BILLING_OFF, CheckoutInput, planName, type SubscriptionView } from '../../../common/billing.contract.ts';
import { formatDate, formatMoney } from '../../../common/format.ts';
import { BILLING_PERIODS, PRICING_PLANS } from '../../../common/pricing.ts';
import { TIER_LABEL } from '../../../common/tiers.ts';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { controlClass } from '../../components/ui/field.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices, pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/billing';

export const meta = () => pageMeta({ title: 'Billing', description: 'Your RealtyPocket membership plan, payments and invoices.' });

export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer } = memberPageServices(context);
  return services.billing.overview(viewer);
}

// The plan select sends 'tier:period', so changing plan works without JavaScript too.
const PlanChoice = z
  .string()
  .transform((value) => ({ tier: value.split(':')[0], period: value.split(':')[1] }))
  .pipe(CheckoutInput);

const BillingForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('change'), plan: PlanChoice }),
  z.object({ intent: z.literal('cancel') }),
  z.object({ intent: z.literal('resume') }),
  z.object({ intent: z.literal('portal') }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(BillingForm, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const input = form.data;
  switch (input.intent) {
    case 'change': {
      const done = await attempt(() => services.billing.changePlan(viewer, input.plan));
      return done.ok ? { ok: true as const, message: `Your plan is now ${planName(input.plan)}.` } : done.refusal;
    }
    case 'cancel': {
      const done = await attempt(() => services.billing.cancelAtPeriodEnd(viewer));
      if (!done.ok) return done.refusal;
      return { ok: true as const, message: `Your membership ends on ${formatDate(done.value.current_period_end, 'long')}.` };
    }
    case 'resume': {
      const done = await attempt(() => services.billing.resume(viewer));
      return done.ok ? { ok: true as const, message: 'Your membership continues. Thank you for staying!' } : done.refusal;
    }
    case 'portal': {
      const done = await attempt(() => services.billing.portal(viewer));
      if (!done.ok) return done.refusal;
      throw redirect(done.value.url);
    }
  }
}

/** One billing form: its own fetcher, its result as a toast. */
function useBillingForm(key: string) {
  const fetcher = useFetcher<typeof action>({ key });
  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== 'idle') return;
    if (result.ok) toast.success(result.message);
    else toast.error(result.formError ?? 'Please try again.');
  }, [fetcher.data, fetcher.state]);
  return fetcher;
}

const STATUS_LABEL: Record<SubscriptionView['status'], string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment due',
  unpaid: 'Unpaid',
  incomplete: 'Awaiting payment',
  incomplete_expired: 'Expired',
  canceled: 'Canceled',
  paused: 'Paused',
};

const PLAN_OPTIONS = PRICING_PLANS.flatMap((plan) =>
  BILLING_PERIODS.map((period) => ({
    value: `${plan.tier}:${period}`,
    label: `${plan.name}, ${period}: ${formatMoney((period === 'monthly' ? plan.monthlyPrice : plan.yearlyPrice) * 100)}/${period === 'monthly' ? 'month' : 'year'}`,
  })),
);

function CurrentPlan({ subscription, offer }: { subscription: SubscriptionView; offer: { code: string; label: string } | null }) {
  const cancel = useBillingForm('billing-cancel');
  const resume = useBillingForm('billing-resume');
  const ends = formatDate(subscription.current_period_end, 'long');
  const plan =
    subscription.tier && subscription.period ? planName({ tier: subscription.tier, period: subscription.period }) : 'Custom plan';
  return (
    <Card as="section" className="p-6" data-testid="current-plan">
      <h2 className="text-lg font-bold text-gray-900">Your plan</h2>
      <p className="mt-3 text-xl font-bold text-brand-800">{plan}</p>
      <p className="mt-1 text-sm text-gray-700">
        {formatMoney(subscription.amount_cents, subscription.currency)} per {subscription.period === 'yearly' ? 'year' : 'month'} ·{' '}
        <span data-testid="subscription-status">{STATUS_LABEL[subscription.status]}</span>
      </p>
      {subscription.trial_ends_at && (
        <p className="mt-3 rounded-lg bg-green-50 px-4 py-3 text-sm text-green-900" data-testid="plan-trial">
          Free trial until {formatDate(subscription.trial_ends_at, 'long')}: your first payment is then.
        </p>
      )}
      {offer && (
        <p className="mt-3 text-sm text-gray-900" data-testid="plan-offer">
          Offer {offer.code}: {offer.label}.
        </p>
      )}
      {subscription.status === 'past_due' && (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
          Your last payment did not go through. Update your payment method to keep your membership.
        </p>
      )}
      {subscription.cancel_at_period_end ? (
        <>
          <p className="mt-3 text-gray-900" data-testid="plan-renewal">
            Your membership ends on {ends}. You keep everything until then, and you will not be charged again.
          </p>
          <resume.Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="resume" />
            <Button type="submit" size="sm" disabled={resume.state !== 'idle'}>
              Keep my membership
            </Button>
          </resume.Form>
        </>
      ) : (
        <>
          <p className="mt-3 text-gray-900" data-testid="plan-renewal">
            Renews on {ends}.
          </p>
          <cancel.Form
            method="post"
            className="mt-4"
            onSubmit={(event) => {
              if (!window.confirm(`Cancel your membership? It stays active until ${ends}, and there is no cancellation fee.`))
                event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="cancel" />
            <button
              type="submit"
              disabled={cancel.state !== 'idle'}
              className="rounded-lg border border-red-700 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:opacity-60"
            >
              Cancel membership
            </button>
            <p className="mt-2 text-xs text-gray-500">Cancellation takes effect at the end of the period you paid for.</p>
          </cancel.Form>
        </>
      )}
    </Card>
  );
}

function ChangePlan({ subscription }: { subscription: SubscriptionView }) {
  const change = useBillingForm('billing-change');
  const current = `${subscription.tier}:${subscription.period}`;
  return (
    <Card as="section" className="p-6">
      <h2 className="text-lg font-bold text-gray-900">Change plan</h2>
      <p className="mt-2 text-sm text-gray-700">The new plan starts right away; the difference is prorated on your next invoice.</p>
      <change.Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="change" />
        <label className="min-w-64 flex-1 text-sm font-medium text-gray-700">
          New plan
          <select name="plan" defaultValue={current} className={`mt-1 ${controlClass(false)}`}>
            {PLAN_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" size="sm" disabled={change.state !== 'idle'}>
          Change plan
        </Button>
      </change.Form>
    </Card>
  );
}

export default function BillingPage({ loaderData }: Route.ComponentProps) {
  const { enabled, subscription, offer, complimentary_tier: complimentary, invoices } = loaderData;
  const portal = useBillingForm('billing-portal');
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">Billing</h1>
        <Link
          to="/account"
          className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline hover:text-brand-600"
        >
          Account settings
        </Link>
      </div>

      {complimentary && (
        <p className="rounded-xl bg-gold-100 px-4 py-3 text-gray-900">
          The {TIER_LABEL[complimentary]} membership on your account is complimentary, from the RealtyPocket team.
        </p>
      )}

      {!enabled && (
        <Card as="section" className="p-6">
          <p className="text-gray-900">{BILLING_OFF}</p>
          <ButtonLink to="/contact" size="sm" className="mt-4">
            Contact us
          </ButtonLink>
        </Card>
      )}

      {enabled && !subscription && (
        <Card as="section" className="p-6">
          <h2 className="text-lg font-bold text-gray-900">Your plan</h2>
          <p className="mt-3 text-gray-700">You do not have a paid membership.</p>
          <ButtonLink to="/pricing" size="sm" className="mt-4">
            See plans
          </ButtonLink>
        </Card>
      )}

      {subscription && <CurrentPlan subscription={subscription} offer={offer} />}
      {subscription?.gives_access && <ChangePlan subscription={subscription} />}

      {enabled && (subscription || invoices.length > 0) && (
        <Card as="section" className="p-6">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-lg font-bold text-gray-900">Payments</h2>
            <portal.Form method="post">
              <input type="hidden" name="intent" value="portal" />
              <Button type="submit" size="sm" variant="outline" disabled={portal.state !== 'idle'}>
                Manage payment method
              </Button>
            </portal.Form>
          </div>
          {invoices.length === 0 && <p className="mt-4 text-sm text-gray-600">No invoices yet.</p>}
          <table className={`mt-4 w-full text-left text-sm ${invoices.length === 0 ? 'hidden' : ''}`}>
            <thead className="text-gray-500">
              <tr>
                <th className="py-2">Date</th>
                <th>Invoice</th>
                <th>Amount</th>
                <th>Status</th>
                <th>
                  <span className="sr-only">Links</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {invoices.map((invoice) => (
                <tr key={invoice.id} data-testid="invoice">
                  <td className="py-2">{formatDate(invoice.created_at)}</td>
                  <td>{invoice.number ?? '—'}</td>
                  <td>{formatMoney(invoice.amount_cents, invoice.currency)}</td>
                  <td className="capitalize">{invoice.status}</td>
                  <td className="space-x-3 text-right font-semibold">
                    {invoice.url && (
                      <a
                        href={invoice.url}
                        className="inline-flex min-h-11 items-center text-brand-800 hover:text-brand-600"
                        target="_blank"
                        rel="noopener noreferrer"
                      >
                        View
                      </a>
                    )}
                    {invoice.pdf_url && (
                      <a href={invoice.pdf_url} className="inline-flex min-h-11 items-center text-brand-800 hover:text-brand-600">
                        PDF
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </div>
  );
}
