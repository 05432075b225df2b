import { z } from 'zod';
import { uuidParam } from './fields.ts';
import { OfferCode } from './offers.contract.ts';
import { BILLING_PERIODS, PAID_TIERS, PRICING_PLANS } from './pricing.ts';
import { TIER_LABEL } from './tiers.ts';
import type { Viewer } from './viewer.ts';

// Paid memberships with Stripe: one Price per paid tier and billing period.

export const PaidTier = z.enum(PAID_TIERS, { error: 'Choose a paid plan: bronze, silver or gold' });
export type PaidTier = z.infer<typeof PaidTier>;
export const BillingPeriod = z.enum(BILLING_PERIODS, { error: 'Choose monthly or yearly billing' });
export type BillingPeriod = z.infer<typeof BillingPeriod>;

export interface Plan {
  tier: PaidTier;
  period: BillingPeriod;
}

/** The Stripe Price of a plan is found by this lookup key. */
export const priceLookupKey = ({ tier, period }: Plan) => `realtypocket_${tier}_${period}`;

/** The plan a lookup key names, or null for a price that is not one of the site's plans. */
export function planOfLookupKey(lookupKey: string | null | undefined): Plan | null {
  const match = /^realtypocket_(bronze|silver|gold)_(monthly|yearly)$/.exec(lookupKey ?? '');
  return match ? { tier: match[1] as PaidTier, period: match[2] as BillingPeriod } : null;
}

/** SPEC 9 prices, in cents, as Stripe charges them. */
export function priceCents({ tier, period }: Plan): number {
  const plan = PRICING_PLANS.find((candidate) => candidate.tier === tier)!;
  return (period === 'monthly' ? plan.monthlyPrice : plan.yearlyPrice) * 100;
}

export const planName = ({ tier, period }: Plan) => `${TIER_LABEL[tier]} (${period})`;

export const BILLING_OFF = 'Online payment is not enabled on this site yet. Please contact us and we will set up your membership.';

export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * Which subscriptions give their tier: active and trialing ones, and past due ones while the member
 * updates their card. Canceled, unpaid, incomplete and expired ones give nothing.
 */
export const givesAccess = (status: SubscriptionStatus) => status === 'active' || status === 'trialing' || status === 'past_due';

/** A subscription that has ended for good; anything else can still be changed or paid. */
export const hasEnded = (status: SubscriptionStatus) => status === 'canceled' || status === 'incomplete_expired';

export const CheckoutInput = z.object({ tier: PaidTier, period: BillingPeriod });
export type CheckoutInput = z.infer<typeof CheckoutInput>;
/** A checkout: the plan, and an offer code when the member brings one. */
export const CheckoutRequest = CheckoutInput.extend({ offer: OfferCode.optional() });
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;
export const UrlResponse = z.object({ url: z.string() });

export const SubscriptionView = z.object({
  id: z.string(),
  /** Null when the price is not one of the site's plans. */
  tier: PaidTier.nullable(),
  period: BillingPeriod.nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  amount_cents: z.number().int(),
  currency: z.string(),
  cancel_at_period_end: z.boolean(),
  /** The next renewal, or the end date when it is set to cancel. */
  current_period_end: z.string(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  /** The end of its free trial, while it is in one. */
  trial_ends_at: z.string().nullable(),
  /** The subscription gives its tier now (active, trialing, or past due while the card is updated). */
  gives_access: z.boolean(),
});
export type SubscriptionView = z.infer<typeof SubscriptionView>;
export const SubscriptionResponse = SubscriptionView.nullable();

export const InvoiceView = z.object({
  id: z.string(),
  number: z.string().nullable(),
  status: z.string(),
  amount_cents: z.number().int(),
  currency: z.string(),
  created_at: z.string(),
  /** Stripe's page for the invoice, and its PDF. */
  url: z.string().nullable(),
  pdf_url: z.string().nullable(),
});
export type InvoiceView = z.infer<typeof InvoiceView>;
export const InvoiceList = z.array(InvoiceView);

/** Everything the member's billing page shows. */
export const BillingOverview = z.object({
  enabled: z.boolean(),
  subscription: SubscriptionView.nullable(),
  /** The offer the subscription was bought with: its code and discount. */
  offer: z.object({ code: z.string(), label: z.string() }).nullable(),
  complimentary_tier: PaidTier.nullable(),
  invoices: z.array(InvoiceView),
});
type BillingOverview = z.infer<typeof BillingOverview>;

export const Revenue = z.object({
  /** Subscriptions being paid for (active, or past due while the card is retried), by plan. */
  active_by_plan: z.array(z.object({ tier: PaidTier, period: BillingPeriod, count: z.number().int() })),
  active_count: z.number().int(),
  /** Yearly plans count as a twelfth of their price. */
  monthly_recurring_cents: z.number().int(),
  currency: z.string(),
});
export type Revenue = z.infer<typeof Revenue>;

export const RefundParams = z.object({ id: uuidParam('Member id') });
export const RefundResponse = z.object({ refunded_cents: z.number().int(), subscription: SubscriptionView });
export type RefundResponse = z.infer<typeof RefundResponse>;

export interface BillingService {
  /** Whether this site takes payments (STRIPE_SECRET_KEY is set). */
  readonly enabled: boolean;
  /**
   * A Stripe Checkout page for this plan (with the offer's discount, and the tier's free trial for a
   * member who never had one); 409 when the member already has a paid subscription.
   */
  checkout(viewer: Viewer, plan: CheckoutRequest): Promise<{ url: string }>;
  /** The member's current subscription (one that has not ended), or null. */
  subscription(viewer: Viewer): Promise<SubscriptionView | null>;
  overview(viewer: Viewer): Promise<BillingOverview>;
  invoices(viewer: Viewer): Promise<InvoiceView[]>;
  /** Re-reads the member's subscriptions from Stripe: after checkout, before its webhooks arrive. */
  refresh(viewer: Viewer): Promise<void>;
  /** Stripe's customer portal, to manage the payment method. */
  portal(viewer: Viewer): Promise<{ url: string }>;
  /** Changes plan or period at once, prorated. */
  changePlan(viewer: Viewer, plan: CheckoutInput): Promise<SubscriptionView>;
  /** SPEC 9: cancel anytime, effective at the end of the billing period. */
  cancelAtPeriodEnd(viewer: Viewer): Promise<SubscriptionView>;
  resume(viewer: Viewer): Promise<SubscriptionView>;
}

/** The owners' side of billing. */
export interface BillingAdminService {
  /** The money-back guarantee for a first-time subscriber within MONEY_BACK_DAYS: refund and cancel now. */
  refundFirstSubscription(viewer: Viewer, memberId: string): Promise<RefundResponse>;
  revenue(viewer: Viewer): Promise<Revenue>;
}
