import { OFFER_PLANS, offerLabel, planPriceCents, priceWithOffer, type OffersService } from '../../common/offers.contract.ts';
import { OFFER_LOOKUP_LIMIT } from '../../common/limits.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { DataAccess } from '../repositories.ts';
import { offerUsable, trialsOf } from './offers-admin.service.ts';

// Offers as everyone sees them: /pricing?offer=CODE shows each plan's price with the offer, while the
// code can be used; and each tier's free trial.

export function createOffersService(data: DataAccess, limiter: AttemptLimiter): OffersService {
  return {
    async find(viewer, code) {
      await limiter.check('offer-lookup:address', viewer.client.address, OFFER_LOOKUP_LIMIT);
      const offer = await data.offers.findByCode(code);
      if (!offer) return null;
      const uses = (await data.offers.usesOf([offer.id])).get(offer.id)?.uses ?? 0;
      if (!offerUsable(offer, uses)) return null;
      return {
        code: offer.code,
        name: offer.name,
        label: offerLabel(offer),
        ends_at: offer.endsAt?.toISOString() ?? null,
        plans: OFFER_PLANS.filter((plan) => offer.plans.includes(plan)).map((plan) => ({
          plan,
          price_cents: planPriceCents(plan),
          offer_price_cents: priceWithOffer(planPriceCents(plan), offer),
        })),
      };
    },

    trials: () => trialsOf(data),
  };
}
