import Stripe from 'stripe';
import { planOfLookupKey, priceCents, priceLookupKey, type Plan } from '../../common/billing.contract.ts';
import { BILLING_PERIODS, PAID_TIERS, PRICING_PLANS } from '../../common/pricing.ts';
import { BRAND_NAME } from '../../common/brand.ts';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another Stripe-compatible API (stripe-mock, or the tests' server) instead of api.stripe.com. */
  apiBase: string | undefined;
}

interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

const ALL_PLANS: Plan[] = PAID_TIERS.flatMap((tier) => BILLING_PERIODS.map((period) => ({ tier, period })));
const INTERVAL = { monthly: 'month', yearly: 'year' } as const;

function createStripeClient(settings: StripeSettings): Stripe {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: BRAND_NAME } };
  if (settings.apiBase) {
    const url = new URL(settings.apiBase);
    const protocol = url.protocol === 'https:' ? 'https' : 'http';
    Object.assign(config, { host: url.hostname, port: Number(url.port || (protocol === 'https' ? 443 : 80)), protocol });
  }
  return new Stripe(settings.secretKey, config);
}

export const isStripeError = (error: unknown, code: string) => error instanceof Stripe.errors.StripeError && error.code === code;

/** A price charges what the pricing page says: the spec's amount in USD, every month or year. */
function chargesAsAdvertised(price: Stripe.Price, plan: Plan): boolean {
  return (
    price.active &&
    price.currency === 'usd' &&
    price.unit_amount === priceCents(plan) &&
    price.recurring?.interval === INTERVAL[plan.period] &&
    price.recurring.interval_count === 1
  );
}

/**
 * The site's Stripe account: the SDK client and the six plan prices. Prices are found by lookup key
 * and created when missing, with fixed ids and idempotency keys, so several processes starting at
 * once end up with one product per tier and one price per plan.
 */
export class StripeGateway {
  readonly stripe: Stripe;
  readonly webhookSecret: string;
  private readonly log: Log;
  private prices: Promise<Map<string, Stripe.Price>> | undefined;

  constructor(settings: StripeSettings, log: Log) {
    this.stripe = createStripeClient(settings);
    this.webhookSecret = settings.webhookSecret;
    this.log = log;
  }

  /** The price of each plan by lookup key; found or created once, tried again after a failure. */
  catalogue(): Promise<Map<string, Stripe.Price>> {
    this.prices ??= this.ensurePrices().catch((error: unknown) => {
      this.prices = undefined;
      throw error;
    });
    return this.prices;
  }

  async priceFor(plan: Plan): Promise<Stripe.Price> {
    const price = (await this.catalogue()).get(priceLookupKey(plan));
    if (!price) throw new Error(`No Stripe price for ${priceLookupKey(plan)}`);
    return price;
  }

  private async ensurePrices(): Promise<Map<string, Stripe.Price>> {
    const found = new Map<string, Stripe.Price>();
    const listed = await this.stripe.prices.list({ lookup_keys: ALL_PLANS.map(priceLookupKey), active: true, limit: 100 });
    for (const price of listed.data) {
      const plan = planOfLookupKey(price.lookup_key);
      if (plan && chargesAsAdvertised(price, plan)) found.set(price.lookup_key!, price);
    }
    for (const plan of ALL_PLANS) {
      const key = priceLookupKey(plan);
      if (found.has(key)) continue;
      const replacing = listed.data.some((price) => price.lookup_key === key);
      found.set(key, await this.createPrice(plan, replacing));
    }
    return found;
  }

  private async createPrice(plan: Plan, replacing: boolean): Promise<Stripe.Price> {
    const key = priceLookupKey(plan);
    const product = await this.ensureProduct(plan.tier);
    const amount = priceCents(plan);
    try {
      const price = await this.stripe.prices.create(
        {
          product,
          currency: 'usd',
          unit_amount: amount,
          recurring: { interval: INTERVAL[plan.period], interval_count: 1 },
          lookup_key: key,
          // A price that charges something else than the pricing page says gives its key up.
          transfer_lookup_key: replacing,
          metadata: { tier: plan.tier, period: plan.period },
        },
        { idempotencyKey: `realtypocket-price-${key}-${amount}-usd` },
      );
      this.log.info({ price: price.id, lookupKey: key }, replacing ? 'replaced a Stripe price' : 'created a Stripe price');
      return price;
    } catch (error) {
      // Another process created it a moment ago.
      if (!isStripeError(error, 'lookup_key_exists')) throw error;
      const [price] = (await this.stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 })).data;
      if (!price) throw error;
      if (!chargesAsAdvertised(price, plan))
        this.log.warn({ price: price.id, lookupKey: key }, 'a Stripe price differs from the pricing page');
      return price;
    }
  }

  /** One product per tier, with a fixed id so that creating it twice is harmless. */
  private async ensureProduct(tier: Plan['tier']): Promise<string> {
    const id = `realtypocket_${tier}`;
    const name = `${BRAND_NAME} ${PRICING_PLANS.find((plan) => plan.tier === tier)!.name} membership`;
    try {
      return (await this.stripe.products.create({ id, name, metadata: { tier } }, { idempotencyKey: `realtypocket-product-${id}` })).id;
    } catch (error) {
      if (isStripeError(error, 'resource_already_exists')) return id;
      throw error;
    }
  }
}
