import { useContext, useState } from 'react';
import { Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { CheckoutRequest } from '../../../common/billing.contract.ts';
import { OFFER_NOT_VALID, OfferCode, type PublicOffer } from '../../../common/offers.contract.ts';
import { buttonClass } from '../../components/ui/button.tsx';
import {
  BILLING_PERIODS,
  formatCents,
  PLAN_COMPARISON,
  PRICING_PLANS,
  type BillingPeriod,
  type PricingPlan,
} from '../../../common/pricing.ts';
import { BillingToggle, PlanCards, planButtonClass } from '../../components/pricing/plan-cards.tsx';
import { Accordion } from '../../components/ui/accordion.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { signUpFor, startCheckout } from '../../lib/checkout.ts';
import { formErrors, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { PlainPage, type PlainPageHandle } from '../../lib/plain-page.tsx';
import { orFallback, pageServices, pageSession } from '../../lib/page-context.ts';
import type { Route } from './+types/pricing';

// A visitor's pricing page needs no app: the period switch, the FAQ and the offer code's plain GET
// form work with the page's small script (docs/decisions/027). A member's runs the app (checkout).
export const handle = { plainForVisitors: true } satisfies PlainPageHandle;

export const meta = () =>
  pageMeta({
    title: 'Pricing',
    description:
      'Bronze, Silver and Gold membership plans for real estate professionals, monthly or yearly, with a 30-day money-back guarantee.',
    path: '/pricing',
  });

// Answers agree with SPEC 9's policy claims.
const PRICING_FAQS = [
  {
    q: 'Can I cancel anytime?',
    a: 'Yes. Cancel from your account whenever you like; your membership stays active until the end of the billing period you paid for. There are no cancellation fees.',
  },
  {
    q: 'How does the 30-day money-back guarantee work?',
    a: 'If you are a first-time subscriber and RealtyPocket is not right for you, contact us within 30 days of your first payment and we will refund it in full.',
  },
  {
    q: 'Can I switch plans later?',
    a: 'Yes. Change your plan or billing period at any time from your billing page. The new plan starts right away, and the difference is prorated on your next invoice.',
  },
  {
    q: 'Do you offer team pricing?',
    a: 'Yes. Teams and brokerages with 5 or more agents get special pricing on request: contact us for team pricing and tell us about your team.',
  },
  {
    q: 'Can I download content for offline use?',
    a: 'Bronze, Silver and Gold members can download courses, podcast episodes and resources to use offline in the mobile app.',
  },
  {
    q: 'Will the price of my plan change?',
    a: 'We give at least 30 days’ notice before any price increase, so you always have time to decide.',
  },
];

/** SPEC 9: team pricing for 5 or more agents, on request, through the contact form. */
const TEAM_PRICING_LINK = `/contact?${new URLSearchParams({ subject: 'Team pricing (5 or more agents)' })}`;

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = pageServices(context);
  const asked = new URL(request.url).searchParams.get('offer');
  const code = asked ? OfferCode.safeParse(asked) : null;
  const [subscription, offer, trials] = await Promise.all([
    viewer.member ? orFallback(services.billing.subscription(viewer), null, 'the subscription') : null,
    code?.success ? orFallback(services.offers.find(viewer, code.data), null, 'the offer') : null,
    services.billing.enabled ? orFallback(services.offers.trials(), null, 'the free trials') : null,
  ]);
  return {
    signedIn: viewer.member !== null,
    billingEnabled: services.billing.enabled,
    currentPlan: subscription?.gives_access ? { tier: subscription.tier, period: subscription.period } : null,
    offer,
    // A code that leads nowhere is said so, beside the field to type another.
    offerProblem: asked && !offer ? OFFER_NOT_VALID : null,
    trials,
  };
}

// A member's 'Start ...' button: on to Stripe's checkout (with the offer brought); a visitor signs up first.
export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(CheckoutRequest, request);
  if (!form.ok) return invalid(form);
  const { viewer } = pageServices(context);
  if (!viewer.member) throw redirect(signUpFor(form.data, true));
  const started = await startCheckout(context, viewer, form.data);
  if (started.ok) throw redirect(started.url);
  if (started.status === 409 && !started.message.includes('this plan')) {
    // A member who pays for another plan changes it on their billing page.
    pageSession(context).flash({ type: 'info', message: started.message });
    throw redirect('/account/billing');
  }
  return formErrors(started.message, started.status);
}

/** What a plan's button does: sign-up for a visitor, checkout for a member, nothing for the plan they have. */
function PlanButton({
  plan,
  period,
  loaderData,
}: {
  plan: PricingPlan;
  period: BillingPeriod;
  loaderData: Route.ComponentProps['loaderData'];
}) {
  const navigation = useNavigation();
  const { signedIn, billingEnabled, currentPlan } = loaderData;
  const offer = offerFor(loaderData.offer, plan, period);
  if (!signedIn) {
    return (
      <Link
        to={signUpFor({ tier: plan.tier, period, ...(offer && { offer: offer.code }) }, billingEnabled)}
        className={planButtonClass(plan)}
      >
        Start {plan.name}
      </Link>
    );
  }
  if (currentPlan?.tier === plan.tier && currentPlan.period === period) {
    return (
      <Link to="/account/billing" className={planButtonClass(plan)}>
        Your current plan
      </Link>
    );
  }
  const busy = navigation.state !== 'idle' && navigation.formData?.get('tier') === plan.tier;
  return (
    <Form method="post">
      <input type="hidden" name="tier" value={plan.tier} />
      <input type="hidden" name="period" value={period} />
      {offer && <input type="hidden" name="offer" value={offer.code} />}
      <button type="submit" disabled={busy} className={planButtonClass(plan)}>
        {busy ? 'Opening checkout...' : `Start ${plan.name}`}
      </button>
    </Form>
  );
}

/** The offer's price for this plan and period, when the offer is for it. */
function offerFor(offer: PublicOffer | null, plan: PricingPlan, period: BillingPeriod) {
  const price = offer?.plans.find((each) => each.plan === `${plan.tier}_${period}`);
  return offer && price ? { code: offer.code, label: offer.label, priceCents: price.offer_price_cents } : null;
}

/** Under a plan's price: its price with the offer brought, and its free trial. */
function PlanNote({
  plan,
  period,
  loaderData,
}: {
  plan: PricingPlan;
  period: BillingPeriod;
  loaderData: Route.ComponentProps['loaderData'];
}) {
  const offer = offerFor(loaderData.offer, plan, period);
  const trialDays = loaderData.trials?.[plan.tier] ?? 0;
  if (!offer && trialDays === 0) return null;
  return (
    <div className="mt-2 space-y-1 text-sm" data-testid={`offer-${plan.tier}`}>
      {offer && (
        <p className="font-semibold text-brand-800">
          With {offer.code}: {formatCents(offer.priceCents)}
          {period === 'monthly' ? '/month' : '/year'} ({offer.label})
        </p>
      )}
      {trialDays > 0 && <p className="font-semibold text-green-700">{trialDays} days free for new members</p>}
    </div>
  );
}

/** Have an offer code? Typed here, it shows on the plans (a plain GET form: no JavaScript needed). */
function OfferCodeForm({ offer, problem }: { offer: PublicOffer | null; problem: string | null }) {
  return (
    <Form method="get" className="mx-auto mb-8 flex max-w-md flex-wrap items-end justify-center gap-2">
      <label className="flex min-w-0 flex-1 flex-col text-sm font-semibold text-gray-800">
        Have an offer code?
        <input
          name="offer"
          defaultValue={offer?.code ?? ''}
          maxLength={30}
          autoCapitalize="characters"
          className="mt-1 min-h-11 rounded-lg border border-gray-300 px-3 text-base uppercase"
          aria-describedby={problem ? 'offer-problem' : undefined}
        />
      </label>
      <button type="submit" className={buttonClass({ variant: 'outline', className: 'min-h-11' })}>
        Apply
      </button>
      {offer && (
        <p className="w-full text-center text-sm font-semibold text-green-700" role="status">
          {offer.name}: {offer.label}
        </p>
      )}
      {problem && (
        <p id="offer-problem" className="w-full text-center text-sm font-semibold text-red-700" role="alert">
          {problem}
        </p>
      )}
    </Form>
  );
}

/** Why a member's plan button did not lead to payment: payments are off, or something to fix. */
function CheckoutRefusal({ message }: { message: string }) {
  return (
    <div role="alert" className="mx-auto mb-8 max-w-2xl rounded-xl bg-gold-100 px-5 py-4 text-center text-gray-900">
      <p>{message}</p>
      <Link to="/contact" className="mt-2 inline-block font-semibold text-brand-800 underline hover:text-brand-600">
        Contact us
      </Link>
    </div>
  );
}

export default function PricingPage({ loaderData }: Route.ComponentProps) {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const refused = useActionData<typeof action>();
  const plainPage = useContext(PlainPage);
  return (
    <>
      <PageHeader
        title="Choose Your Plan"
        subtitle="Invest in your real estate career with the training, coaching and community you need to grow."
      />
      <section className="mx-auto max-w-6xl px-4 py-12">
        <div className="mb-10 text-center">
          <BillingToggle period={period} onChange={setPeriod} />
        </div>
        {refused && !refused.ok && refused.formError && <CheckoutRefusal message={refused.formError} />}
        {/* The cards' plan names are h3s: this keeps the outline in order for screen readers. */}
        <h2 className="sr-only">Membership plans</h2>
        {loaderData.billingEnabled && <OfferCodeForm offer={loaderData.offer} problem={loaderData.offerProblem} />}
        {/* A visitor's plain page holds both periods' cards, the yearly hidden, for public/page-enhancer.js to switch. */}
        {(plainPage ? BILLING_PERIODS : [period]).map((shown) => (
          <div key={shown} data-billing-period={shown} hidden={shown !== period}>
            <PlanCards
              period={shown}
              planAction={(plan) => <PlanButton plan={plan} period={shown} loaderData={loaderData} />}
              planNote={(plan) => <PlanNote plan={plan} period={shown} loaderData={loaderData} />}
            />
          </div>
        ))}
        <p className="mt-8 text-center text-gray-700">
          A team of 5 or more agents?{' '}
          <Link to={TEAM_PRICING_LINK} className="font-semibold text-brand-800 underline hover:text-brand-600">
            Contact us for team pricing
          </Link>
          {loaderData.billingEnabled && (
            <>
              {' '}
              or{' '}
              <Link to="/team/new" className="font-semibold text-brand-800 underline hover:text-brand-600">
                buy seats for your team online
              </Link>
            </>
          )}
        </p>
      </section>

      <section className="mx-auto max-w-5xl px-4 py-8">
        <h2 className="text-center text-2xl font-bold text-gray-900">Compare Plans</h2>
        {/* Fixed columns that share the width: on a 360 px phone all three plans stay side by side,
            with nothing to scroll to. */}
        <div className="mt-6 overflow-hidden rounded-2xl border border-gray-200">
          <table className="w-full table-fixed text-left text-xs sm:text-sm" data-testid="plan-comparison">
            <thead className="bg-brand-50 text-brand-900">
              <tr>
                <th scope="col" className="w-[34%] px-2 py-3 sm:px-4">
                  Feature
                </th>
                {PRICING_PLANS.map((plan) => (
                  <th key={plan.tier} scope="col" className="px-1 py-3 text-center sm:px-4">
                    {plan.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 bg-white">
              {PLAN_COMPARISON.map((row) => (
                <tr key={row.feature}>
                  <th scope="row" className="px-2 py-3 font-medium text-gray-900 sm:px-4">
                    {row.feature}
                  </th>
                  {row.values.map((value, index) => (
                    <td key={index} className="px-1 py-3 text-center text-gray-700 sm:px-4">
                      {value === '—' ? <span aria-label="Not included">—</span> : value}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="mx-auto max-w-4xl px-4 py-12">
        <div className="rounded-3xl bg-gradient-to-br from-gold-100 to-white p-8 text-center ring-1 ring-gold-300">
          <h2 className="text-2xl font-bold text-gray-900">30-Day Money-Back Guarantee</h2>
          <p className="mx-auto mt-3 max-w-2xl text-gray-700">
            Try any plan risk-free. If you are a first-time subscriber and not completely satisfied within 30 days, we will refund your
            payment in full. No questions asked.
          </p>
        </div>
      </section>

      <section className="mx-auto mb-16 max-w-3xl px-4">
        <h2 className="text-center text-2xl font-bold text-gray-900">Frequently Asked Questions</h2>
        <Accordion className="mt-6" items={PRICING_FAQS.map((faq) => ({ key: faq.q, header: faq.q, body: <p>{faq.a}</p> }))} />
      </section>
    </>
  );
}
