import { z } from 'zod';
import { conflict, notFound } from '../../common/errors.ts';
import { PAGE_SIZE } from '../../common/limits.ts';
import { offerLabel, type OffersAdminService, type OfferView, type TrialSettings } from '../../common/offers.contract.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { PAID_TIERS, type PaidTier } from '../../common/pricing.ts';
import { DEFAULT_TIME_ZONE, instantOf } from '../../common/time-zones.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { DataAccess } from '../repositories.ts';
import { stripeFor } from './billing-views.ts';
import type { OfferRow } from './offers.repository.ts';
import { isStripeError, productIdOf, type StripeGateway } from './stripe-gateway.ts';
import type { SyncDependencies } from './subscription-sync.ts';

// The owners' offers and trials. An offer is a Stripe coupon (the discount, for the tiers' products)
// and its promotion code (the code, its end date and number of uses), made through the API with
// idempotency keys; the site keeps its own row, which checkout reads. Ending an offer deactivates its
// code: members who have the discount keep it, as Stripe keeps it on their subscription.

const OfferCursor = z.tuple([TimestampKey, z.uuid()]);

/** Whether an offer can be used now: not ended, not past its date, uses left. */
export const offerUsable = (offer: OfferRow, uses: number, now = new Date()) =>
  offer.endedAt === null && (offer.endsAt === null || offer.endsAt > now) && (offer.maxUses === null || uses < offer.maxUses);

function offerView(offer: OfferRow, used: { uses: number; revenueCents: number } | undefined): OfferView {
  const uses = used?.uses ?? 0;
  return {
    id: offer.id,
    code: offer.code,
    name: offer.name,
    label: offerLabel(offer),
    percent_off: offer.percentOff,
    amount_off_cents: offer.amountOffCents,
    duration: offer.duration,
    duration_months: offer.durationMonths,
    plans: offer.plans,
    ends_at: offer.endsAt?.toISOString() ?? null,
    max_uses: offer.maxUses,
    uses,
    revenue_cents: used?.revenueCents ?? 0,
    ended_at: offer.endedAt?.toISOString() ?? null,
    active: offerUsable(offer, uses),
    created_at: offer.createdAt.toISOString(),
  };
}

/** Each paid tier's free trial in days (0: none). */
export async function trialsOf(data: Pick<DataAccess, 'offers'>): Promise<TrialSettings> {
  const rows = await data.offers.trials();
  return Object.fromEntries(PAID_TIERS.map((tier) => [tier, rows.find((row) => row.tier === tier)?.days ?? 0])) as TrialSettings;
}

export function createOffersAdminService(deps: {
  data: DataAccess;
  gateway: StripeGateway | undefined;
  mailer: Mailer;
  log: SyncDependencies['log'];
}): OffersAdminService {
  const { data } = deps;

  async function viewOf(offer: OfferRow): Promise<OfferView> {
    return offerView(offer, (await data.offers.usesOf([offer.id])).get(offer.id));
  }

  return {
    async list(viewer, query = {}) {
      requireStaffArea(viewer, 'billing');
      const before = query.before ? decodeCursor(query.before, OfferCursor) : undefined;
      const rows = await data.offers.list(PAGE_SIZE.staffList + 1, before && { createdAt: before[0], id: before[1] });
      const used = await data.offers.usesOf(rows.map((row) => row.row.id));
      return pageOf(
        rows,
        PAGE_SIZE.staffList,
        (row) => [row.createdKey, row.row.id],
        (row) => offerView(row.row, used.get(row.row.id)),
      );
    },

    async create(viewer, input) {
      const staff = requireStaffArea(viewer, 'billing');
      const { gateway, stripe } = stripeFor(deps);
      if (await data.offers.findByCode(input.code)) throw conflict(`The code ${input.code} is taken: choose another.`);
      // The offer ends at the end of its last day, in the business's zone.
      const [year, month, day] = (input.ends_on ?? '').split('-').map(Number) as [number, number, number];
      const endsAt = input.ends_on ? instantOf({ year, month, day, hour: 23, minute: 59 }, DEFAULT_TIME_ZONE) : null;
      if (endsAt && endsAt <= new Date()) throw conflict('The offer must end on a date still to come.');
      // The products the coupon is for exist once the plan prices do.
      await gateway.catalogue();
      const tiers = [...new Set(input.plans.map((plan) => plan.split('_')[0] as PaidTier))];
      const key = `realtypocket-offer-${input.code}`;
      const coupon = await stripe.coupons.create(
        {
          name: input.name,
          ...(input.percent_off ? { percent_off: input.percent_off } : { amount_off: input.amount_off_cents!, currency: 'usd' }),
          duration: input.duration,
          ...(input.duration === 'repeating' && { duration_in_months: input.duration_months! }),
          applies_to: { products: tiers.map(productIdOf) },
          metadata: { code: input.code },
        },
        { idempotencyKey: `${key}-coupon` },
      );
      let promotionCode;
      try {
        promotionCode = await stripe.promotionCodes.create(
          {
            promotion: { type: 'coupon', coupon: coupon.id },
            code: input.code,
            ...(input.max_uses && { max_redemptions: input.max_uses }),
            ...(endsAt && { expires_at: Math.floor(endsAt.getTime() / 1000) }),
            metadata: { code: input.code },
          },
          { idempotencyKey: `${key}-promotion-code` },
        );
      } catch (error) {
        if (isStripeError(error, 'resource_already_exists') || isStripeError(error, 'promotion_code_already_exists'))
          throw conflict(`The code ${input.code} is taken in Stripe: choose another.`);
        throw error;
      }
      const offer = await data.transaction(async (tx) => {
        const row = await tx.offers.insert({
          code: input.code,
          name: input.name,
          percentOff: input.percent_off ?? null,
          amountOffCents: input.percent_off ? null : (input.amount_off_cents ?? null),
          duration: input.duration,
          durationMonths: input.duration === 'repeating' ? (input.duration_months ?? null) : null,
          plans: input.plans,
          endsAt,
          maxUses: input.max_uses ?? null,
          stripeCouponId: coupon.id,
          stripePromotionCodeId: promotionCode.id,
          createdBy: staff.email,
        });
        await tx.audit.record({ actorEmail: staff.email, action: 'billing.offer', target: input.code, oldValue: null, newValue: input });
        return row;
      });
      return viewOf(offer);
    },

    async end(viewer, offerId) {
      const staff = requireStaffArea(viewer, 'billing');
      const { stripe } = stripeFor(deps);
      const offer = await data.offers.find(offerId);
      if (!offer) throw notFound('Offer not found');
      if (offer.endedAt) return viewOf(offer);
      await stripe.promotionCodes.update(offer.stripePromotionCodeId, { active: false });
      await data.transaction(async (tx) => {
        await tx.offers.end(offer.id);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'billing.offer-end',
          target: offer.code,
          oldValue: 'active',
          newValue: 'ended',
        });
      });
      return viewOf((await data.offers.find(offer.id))!);
    },

    async trials(viewer) {
      requireStaffArea(viewer, 'billing');
      return trialsOf(data);
    },

    async setTrials(viewer, input) {
      const staff = requireStaffArea(viewer, 'billing');
      const before = await trialsOf(data);
      await data.transaction(async (tx) => {
        for (const tier of PAID_TIERS) await tx.offers.setTrial(tier, input[tier], staff.email);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'billing.trials',
          target: 'free trials',
          oldValue: before,
          newValue: input,
        });
      });
      return trialsOf(data);
    },
  };
}
