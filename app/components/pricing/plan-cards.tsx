import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  formatPrice,
  PRICING_PLANS,
  yearlySavingDollars,
  YEARLY_TOGGLE_LABEL,
  type BillingPeriod,
  type PricingPlan,
} from '../../../common/pricing.ts';

/** SPEC 4: monthly or yearly, default monthly; the label reads 'Save 16%'. */
export function BillingToggle({ period, onChange }: { period: BillingPeriod; onChange: (period: BillingPeriod) => void }) {
  return (
    <div className="inline-flex items-center gap-1 rounded-full bg-gray-100 p-1" role="group" aria-label="Billing period">
      {(['monthly', 'yearly'] as const).map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={period === option}
          onClick={() => onChange(option)}
          className={`rounded-full px-5 py-2 text-sm font-semibold ${period === option ? 'bg-brand-800 text-white shadow' : 'text-gray-700'}`}
        >
          {option === 'monthly' ? 'Monthly' : 'Yearly'}
        </button>
      ))}
      <span className="ml-1 rounded-full bg-gold-400 px-3 py-1 text-xs font-bold text-brand-900">{YEARLY_TOGGLE_LABEL}</span>
    </div>
  );
}

/** The look of a plan's 'Start ...' button, a link or a form's button. */
export const planButtonClass = (plan: PricingPlan) =>
  `mt-6 inline-flex w-full justify-center rounded-lg px-4 py-3 font-semibold disabled:opacity-60 ${
    plan.popular ? 'bg-brand-800 text-white hover:bg-brand-700' : 'border border-brand-800 text-brand-800 hover:bg-brand-50'
  }`;

/**
 * The three plan cards (Bronze, Silver 'Most Popular', Gold), each with its 'Start ...' button:
 * a link to `buttonTarget` (/pricing in the home page's preview, SPEC 2), or what `planAction`
 * renders (the pricing page: sign-up for visitors, checkout for members).
 */
export function PlanCards({
  period,
  buttonTarget = '/signup',
  planAction,
  planNote,
}: {
  period: BillingPeriod;
  buttonTarget?: string;
  planAction?: (plan: PricingPlan) => ReactNode;
  /** Under the price: an offer's price, a free trial. */
  planNote?: (plan: PricingPlan) => ReactNode;
}) {
  return (
    <div className="grid gap-6 md:grid-cols-3">
      {PRICING_PLANS.map((plan) => (
        <article
          key={plan.tier}
          data-plan={plan.tier}
          className={`relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm ${plan.popular ? 'border-gold-500 ring-2 ring-gold-400' : 'border-gray-200'}`}
        >
          {plan.popular && (
            <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-gold-400 px-3 py-1 text-xs font-bold text-brand-900">
              Most Popular
            </span>
          )}
          <h3 className="text-xl font-bold text-gray-900">{plan.name}</h3>
          <p className="mt-2 text-sm text-gray-600">{plan.description}</p>
          <p className="mt-5">
            <span className="text-4xl font-extrabold text-brand-800" data-testid={`price-${plan.tier}`}>
              {formatPrice(period === 'monthly' ? plan.monthlyPrice : plan.yearlyPrice)}
            </span>
            <span className="text-gray-500">{period === 'monthly' ? '/month' : '/year'}</span>
          </p>
          {period === 'yearly' && (
            <p className="mt-1 text-sm font-semibold text-green-700">Save {formatPrice(yearlySavingDollars(plan))} a year</p>
          )}
          {planNote?.(plan)}
          <ul className="mt-5 flex-1 space-y-2 text-sm text-gray-700">
            {plan.features.map((feature) => (
              <li key={feature.text} className="flex gap-2">
                <span className="text-gold-600" aria-hidden="true">
                  ✓
                </span>
                {feature.text}
              </li>
            ))}
          </ul>
          {planAction ? (
            planAction(plan)
          ) : (
            <Link to={buttonTarget} className={planButtonClass(plan)}>
              Start {plan.name}
            </Link>
          )}
        </article>
      ))}
    </div>
  );
}
