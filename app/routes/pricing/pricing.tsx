import { useState } from 'react';
import { PLAN_COMPARISON, PRICING_PLANS, type BillingPeriod } from '../../../common/pricing.ts';
import { BillingToggle, PlanCards } from '../../components/pricing/plan-cards.tsx';
import { Accordion } from '../../components/ui/accordion.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

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
    a: 'Yes. Upgrade or downgrade at any time; the change applies from your next billing period, and upgrades unlock the new content right away.',
  },
  {
    q: 'Do you offer team pricing?',
    a: 'Yes. Teams and brokerages with 5 or more agents get special pricing on request: send us a message from the contact page.',
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

export default function PricingPage() {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
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
        <PlanCards period={period} />
      </section>

      <section className="mx-auto max-w-5xl px-4 py-8">
        <h2 className="text-center text-2xl font-bold text-gray-900">Compare Plans</h2>
        <div className="mt-6 overflow-x-auto rounded-2xl border border-gray-200">
          <table className="w-full min-w-[480px] text-left text-sm">
            <thead className="bg-brand-50 text-brand-900">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Feature
                </th>
                {PRICING_PLANS.map((plan) => (
                  <th key={plan.tier} scope="col" className="px-4 py-3 text-center">
                    {plan.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 bg-white">
              {PLAN_COMPARISON.map((row) => (
                <tr key={row.feature}>
                  <th scope="row" className="px-4 py-3 font-medium text-gray-900">
                    {row.feature}
                  </th>
                  {row.values.map((value, index) => (
                    <td key={index} className="px-4 py-3 text-center text-gray-700">
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
