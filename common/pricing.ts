// SPEC 3 "Pricing plan" and SPEC 9 prices, features and comparison table: the one place they live.
export const PAID_TIERS = ['bronze', 'silver', 'gold'] as const;
export type PaidTier = (typeof PAID_TIERS)[number];
/** Whether a tier is one that is paid for (every tier but free). */
export const isPaidTier = (tier: string): tier is PaidTier => (PAID_TIERS as readonly string[]).includes(tier);
export const BILLING_PERIODS = ['monthly', 'yearly'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

interface PlanFeature {
  text: string;
  included: boolean;
}

export interface PricingPlan {
  tier: PaidTier;
  name: string;
  monthlyPrice: number;
  yearlyPrice: number;
  description: string;
  features: PlanFeature[];
  popular: boolean;
}

const included = (text: string): PlanFeature => ({ text, included: true });

export const PRICING_PLANS: PricingPlan[] = [
  {
    tier: 'bronze',
    name: 'Bronze',
    monthlyPrice: 29,
    yearlyPrice: 290,
    description: 'Build your foundation with daily tips, core courses and the full community.',
    features: [
      included('Daily tips'),
      included('Bronze-tier courses'),
      included('Full community access'),
      included('Downloadable resources'),
      included('Email support'),
    ],
    popular: false,
  },
  {
    tier: 'silver',
    name: 'Silver',
    monthlyPrice: 79,
    yearlyPrice: 790,
    description: 'Every course plus weekly live coaching to grow your business faster.',
    features: [
      included('All courses'),
      included('Weekly live coaching'),
      included('Priority community support'),
      included('Templates and scripts'),
      included('Certificates'),
    ],
    popular: true,
  },
  {
    tier: 'gold',
    name: 'Gold',
    monthlyPrice: 149,
    yearlyPrice: 1490,
    description: 'VIP coaching and advanced resources for top producers and team leaders.',
    features: [
      included('VIP content'),
      included('Monthly 1-on-1 coaching'),
      included('Advanced marketing resources'),
      included('Early access to new content'),
      included('Gold member events'),
      included('Priority email and phone support'),
      included('Custom branding templates'),
    ],
    popular: false,
  },
];

/** SPEC 9: the yearly saving is 12 x monthly minus yearly. */
export function yearlySavingDollars(plan: Pick<PricingPlan, 'monthlyPrice' | 'yearlyPrice'>): number {
  return plan.monthlyPrice * 12 - plan.yearlyPrice;
}

/** The saving as a whole percentage of paying monthly (16.7% works out for every plan). */
export function yearlySavingPercent(plan: Pick<PricingPlan, 'monthlyPrice' | 'yearlyPrice'>): number {
  return Math.round((yearlySavingDollars(plan) / (plan.monthlyPrice * 12)) * 1000) / 10;
}

/** SPEC 2: the toggle's label is 'Save 16%' as written. */
export const YEARLY_TOGGLE_LABEL = 'Save 16%';

/**
 * Dollars as the site writes them: '$1,490', '$63.20' (cents only when there are some). Written out
 * by hand: a number formatter (Intl, toLocaleString) costs a phone tens of milliseconds to make as
 * the pricing page comes alive, for what a comma and two digits say.
 */
function dollarsOf(cents: number): string {
  const whole = Math.floor(Math.abs(cents) / 100);
  const rest = Math.abs(cents) % 100;
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${grouped}${rest === 0 ? '' : `.${String(rest).padStart(2, '0')}`}`;
}

export function formatPrice(amount: number): string {
  return dollarsOf(Math.round(amount * 100));
}

/** An amount in cents as dollars: $63.20, $632 (no cents when there are none). */
export function formatCents(cents: number): string {
  return dollarsOf(Math.round(cents));
}

/** SPEC 9 comparison table (Bronze / Silver / Gold). */
export const PLAN_COMPARISON: { feature: string; values: [string, string, string] }[] = [
  { feature: 'Daily tips', values: ['✓', '✓', '✓'] },
  { feature: 'Podcast', values: ['✓', '✓', '✓'] },
  { feature: 'Resources library', values: ['✓', '✓', '✓'] },
  { feature: 'Courses', values: ['Bronze only', 'All', 'All'] },
  { feature: 'Community', values: ['Full', 'Priority', 'VIP'] },
  { feature: 'Live coaching', values: ['—', 'Weekly', 'Weekly'] },
  { feature: '1-on-1 coaching', values: ['—', '—', 'Monthly'] },
  { feature: 'Templates', values: ['—', '✓', '✓'] },
];
