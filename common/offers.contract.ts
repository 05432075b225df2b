import { z } from 'zod';
import { cursorParam, requiredText } from './fields.ts';
import { OFFERS } from './limits.ts';
import { BILLING_PERIODS, PAID_TIERS, PRICING_PLANS } from './pricing.ts';
import type { Paged } from './paging.ts';
import { TIER_LABEL } from './tiers.ts';
import type { Viewer } from './viewer.ts';

// Free trials and offer codes: owners make an offer (a discount on some plans, for the first payment,
// some months or for good, until a date or a number of uses) and set each paid tier's free trial;
// a visitor or member brings the code to /pricing?offer=CODE or types it, and checkout applies it.

export const OFFER_DURATIONS = ['once', 'repeating', 'forever'] as const;
export type OfferDuration = (typeof OFFER_DURATIONS)[number];

/** The plans an offer may name: `tier_period`. */
export const OFFER_PLANS = PAID_TIERS.flatMap((tier) => BILLING_PERIODS.map((period) => `${tier}_${period}` as const));
export type OfferPlan = (typeof OFFER_PLANS)[number];

export const OfferCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9_-]{3,30}$/, 'An offer code is 3 to 30 letters, digits, dashes or underscores');

const optionalWhole = (message: string, min: number, max: number) =>
  z.preprocess(
    (value) => (value === '' || value === undefined ? null : value),
    z.coerce.number({ error: message }).int(message).min(min, message).max(max, message).nullable(),
  );

export const OfferInput = z
  .object({
    code: OfferCode,
    name: requiredText('Name', OFFERS.nameMax),
    percent_off: optionalWhole('Percent off must be a whole number from 1 to 100', 1, 100).optional(),
    amount_off_cents: optionalWhole(
      `Amount off must be between $1 and $${OFFERS.maxAmountOffCents / 100}`,
      100,
      OFFERS.maxAmountOffCents,
    ).optional(),
    duration: z.enum(OFFER_DURATIONS, { error: 'Choose once, for some months, or forever' }),
    duration_months: optionalWhole(`Months must be a whole number from 1 to ${OFFERS.maxMonths}`, 1, OFFERS.maxMonths).optional(),
    plans: z
      .array(z.enum(OFFER_PLANS, { error: 'Choose plans such as silver_monthly' }), { error: 'Choose the plans it applies to' })
      .min(1, 'Choose at least one plan it applies to'),
    ends_on: z
      .preprocess((value) => (value === '' ? null : value), z.iso.date('End date must be a date (YYYY-MM-DD)').nullable())
      .optional(),
    max_uses: optionalWhole(`Uses must be a whole number from 1 to ${OFFERS.maxUses}`, 1, OFFERS.maxUses).optional(),
  })
  .superRefine((input, context) => {
    if (((input.percent_off ?? null) === null) === ((input.amount_off_cents ?? null) === null))
      context.addIssue({ code: 'custom', path: ['percent_off'], message: 'Give either a percent off or an amount off' });
    if (input.duration === 'repeating' && !input.duration_months)
      context.addIssue({ code: 'custom', path: ['duration_months'], message: 'Say for how many months the discount lasts' });
  });
export type OfferInput = z.infer<typeof OfferInput>;

export const OfferView = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  /** "20% off for 3 months", "$10 off the first payment". */
  label: z.string(),
  percent_off: z.number().nullable(),
  amount_off_cents: z.number().nullable(),
  duration: z.enum(OFFER_DURATIONS),
  duration_months: z.number().nullable(),
  plans: z.array(z.string()),
  ends_at: z.string().nullable(),
  max_uses: z.number().nullable(),
  /** Subscriptions bought with it, and what they have paid so far. */
  uses: z.number().int(),
  revenue_cents: z.number().int(),
  ended_at: z.string().nullable(),
  /** It can be used now: not ended, not past its date, uses left. */
  active: z.boolean(),
  created_at: z.string(),
});
export type OfferView = z.infer<typeof OfferView>;

export const TrialSettings = z.object(
  Object.fromEntries(
    PAID_TIERS.map((tier) => [
      tier,
      z.coerce
        .number({ error: `${TIER_LABEL[tier]}'s trial must be a number of days` })
        .int(`${TIER_LABEL[tier]}'s trial must be a whole number of days`)
        .min(0, `${TIER_LABEL[tier]}'s trial must be 0 (none) or more days`)
        .max(OFFERS.maxTrialDays, `${TIER_LABEL[tier]}'s trial is ${OFFERS.maxTrialDays} days at most`),
    ]),
  ) as Record<(typeof PAID_TIERS)[number], z.ZodCoercedNumber<unknown>>,
);
export type TrialSettings = z.infer<typeof TrialSettings>;

/** An offer as /pricing shows it: each plan's price, and the price with the offer. */
export const PublicOffer = z.object({
  code: z.string(),
  name: z.string(),
  label: z.string(),
  ends_at: z.string().nullable(),
  plans: z.array(z.object({ plan: z.string(), price_cents: z.number().int(), offer_price_cents: z.number().int() })),
});
export type PublicOffer = z.infer<typeof PublicOffer>;

export const OffersQuery = z.object({ before: cursorParam().optional() });
export const OfferCodeParams = z.object({ code: OfferCode });
export const OfferParams = z.object({ id: z.uuid({ error: 'Offer id must be a valid id' }) });

export const OFFER_NOT_VALID = 'This offer code is not valid: it may have ended or been used up.';
export const offerNotForPlan = (plan: string) => `This offer is not for the ${plan} plan.`;

/** The plan's price in cents (SPEC 9 prices). */
export function planPriceCents(plan: OfferPlan): number {
  const [tier, period] = plan.split('_') as [(typeof PAID_TIERS)[number], (typeof BILLING_PERIODS)[number]];
  const listed = PRICING_PLANS.find((candidate) => candidate.tier === tier)!;
  return (period === 'monthly' ? listed.monthlyPrice : listed.yearlyPrice) * 100;
}

/** A price with the offer's discount (what the first payment costs). */
export function priceWithOffer(priceCents: number, offer: { percentOff: number | null; amountOffCents: number | null }): number {
  if (offer.percentOff !== null) return Math.round((priceCents * (100 - offer.percentOff)) / 100);
  return Math.max(0, priceCents - (offer.amountOffCents ?? 0));
}

/** "20% off for 3 months", "$10 off the first payment", "15% off for good". */
export function offerLabel(offer: {
  percentOff: number | null;
  amountOffCents: number | null;
  duration: OfferDuration;
  durationMonths: number | null;
}) {
  const off =
    offer.percentOff !== null ? `${offer.percentOff}% off` : `$${((offer.amountOffCents ?? 0) / 100).toFixed(2).replace(/\.00$/, '')} off`;
  if (offer.duration === 'once') return `${off} the first payment`;
  if (offer.duration === 'forever') return `${off} for as long as you stay`;
  return `${off} for ${offer.durationMonths} ${offer.durationMonths === 1 ? 'month' : 'months'}`;
}

export interface OffersService {
  /** The offer a code names, while it can be used, as /pricing shows it; null when it cannot. Limited per client address. */
  find(viewer: Viewer, code: string): Promise<PublicOffer | null>;
  /** Each paid tier's free trial (days) now. */
  trials(): Promise<TrialSettings>;
}

export interface OffersAdminService {
  list(viewer: Viewer, query?: { before?: string }): Promise<Paged<OfferView>>;
  create(viewer: Viewer, input: OfferInput): Promise<OfferView>;
  end(viewer: Viewer, offerId: string): Promise<OfferView>;
  trials(viewer: Viewer): Promise<TrialSettings>;
  setTrials(viewer: Viewer, input: TrialSettings): Promise<TrialSettings>;
}
