import type Stripe from 'stripe';
import { planOfLookupKey, priceCents, priceLookupKey, type Plan } from '../../common/billing.contract.ts';
import { BILLING_PERIODS, PAID_TIERS, PRICING_PLANS } from '../../common/pricing.ts';
import { BRAND_NAME } from '../../common/brand.ts';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another Stripe-compatible API (stripe-mock, or the tests' server) instead of api.stripe.com. */
  apiBase: string | undefined;
  /** The longest a call may take, its retry included (OUTBOUND_TIMEOUT_SECONDS). */
  timeoutMs: number;
}

interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** The Stripe product of a tier's membership (fixed, so that making it twice is harmless). */
export const productIdOf = (tier: Plan['tier']) => `realtypocket_${tier}`;

const ALL_PLANS: Plan[] = PAID_TIERS.flatMap((tier) => BILLING_PERIODS.map((period) => ({ tier, period })));
const INTERVAL = { monthly: 'month', yearly: 'year' } as const;

async function createStripeClient(settings: StripeSettings): Promise<Stripe> {
  // Two tries of half the budget each: a silent Stripe costs a member at most the budget, then a 503.
  const config: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: Math.ceil(settings.timeoutMs / 2), appInfo: { name: BRAND_NAME } };
  if (settings.apiBase) {
    const url = new URL(settings.apiBase);
    const protocol = url.protocol === 'https:' ? 'https' : 'http';
    Object.assign(config, { host: url.hostname, port: Number(url.port || (protocol === 'https' ? 443 : 80)), protocol });
  }
  // Loaded only when payments are on: the SDK is some 200 modules, read at every start otherwise.
  const { default: StripeClient } = await import('stripe');
  return new StripeClient(settings.secretKey, config);
}

/** The SDK's error class name (`type`), read without loading the SDK: a site without payments never loads it. */
const stripeErrorType = (error: unknown): string | undefined => {
  const type = (error as { type?: unknown } | null)?.type;
  return error instanceof Error && typeof type === 'string' && type.startsWith('Stripe') ? type : undefined;
};

/** Stripe could not be reached, did not answer in time, or is failing on its side: try again later. */
export const isStripeUnavailable = (error: unknown) =>
  ['StripeConnectionError', 'StripeAPIError', 'StripeRateLimitError'].includes(stripeErrorType(error) ?? '');

/** Stripe refused the request as it stands (an expired session, a finished payment...): asking again changes nothing. */
export const isInvalidRequest = (error: unknown) => stripeErrorType(error) === 'StripeInvalidRequestError';

export const isStripeError = (error: unknown, code: string) =>
  stripeErrorType(error) !== undefined && (error as { code?: unknown }).code === code;

/** Checkout refuses a price whose product was archived, even while the price itself is active. */
const productIsActive = (price: Stripe.Price) => typeof price.product !== 'object' || !('active' in price.product) || price.product.active;

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

  private constructor(stripe: Stripe, webhookSecret: string, log: Log) {
    this.stripe = stripe;
    this.webhookSecret = webhookSecret;
    this.log = log;
  }

  static async connect(settings: StripeSettings, log: Log): Promise<StripeGateway> {
    return new StripeGateway(await createStripeClient(settings), settings.webhookSecret, log);
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
    // Archived prices too: a lookup key stays on an archived price until another takes it.
    const listed = await this.stripe.prices.list({ lookup_keys: ALL_PLANS.map(priceLookupKey), limit: 100, expand: ['data.product'] });
    for (const price of listed.data) {
      const plan = planOfLookupKey(price.lookup_key);
      if (plan && chargesAsAdvertised(price, plan) && productIsActive(price)) found.set(price.lookup_key!, price);
    }
    for (const plan of ALL_PLANS) {
      const key = priceLookupKey(plan);
      const holders = listed.data.filter((price) => price.lookup_key === key).map((price) => price.id);
      if (!found.has(key)) found.set(key, await this.createPrice(plan, holders));
    }
    return found;
  }

  /** A new price for the plan, which takes the lookup key from any price that holds it (archived, or charging something else). */
  private async createPrice(plan: Plan, replacing: string[]): Promise<Stripe.Price> {
    const key = priceLookupKey(plan);
    const product = await this.ensureProduct(plan.tier);
    const amount = priceCents(plan);
    const price = await this.stripe.prices.create(
      {
        product,
        currency: 'usd',
        unit_amount: amount,
        recurring: { interval: INTERVAL[plan.period], interval_count: 1 },
        lookup_key: key,
        transfer_lookup_key: true,
        metadata: { tier: plan.tier, period: plan.period },
      },
      // Processes starting together send the same key (they saw the same prices), so Stripe creates the price once.
      { idempotencyKey: `realtypocket-price-${key}-${amount}-usd-replacing-${replacing.sort().join('.') || 'none'}` },
    );
    this.log.info({ price: price.id, lookupKey: key }, 'created a Stripe price');
    return price;
  }

  /**
   * The price of one seat of a team plan at this amount: found by its lookup key, or made (processes
   * asking at once make one, through the idempotency key). A new amount takes the key over. An owner's
   * offer to one brokerage (`quoteId`) has a key of its own, so the listed price keeps its key.
   */
  async teamSeatPrice(plan: Plan, amountCents: number, quoteId?: string): Promise<Stripe.Price> {
    const key = quoteId ? `realtypocket_team_offer_${quoteId}` : `realtypocket_team_${plan.tier}_${plan.period}`;
    const listed = await this.stripe.prices.list({ lookup_keys: [key], limit: 10 });
    const same = listed.data.find(
      (price) =>
        price.active &&
        price.unit_amount === amountCents &&
        price.currency === 'usd' &&
        price.recurring?.interval === INTERVAL[plan.period],
    );
    if (same) return same;
    await this.catalogue();
    return this.stripe.prices.create(
      {
        product: productIdOf(plan.tier),
        currency: 'usd',
        unit_amount: amountCents,
        recurring: { interval: INTERVAL[plan.period], interval_count: 1 },
        lookup_key: key,
        transfer_lookup_key: true,
        metadata: { tier: plan.tier, period: plan.period, team: 'seat' },
      },
      { idempotencyKey: `realtypocket-team-price-${key}-${amountCents}` },
    );
  }

  /** One product per tier, with a fixed id so that creating it twice is harmless; an archived one is restored. */
  private async ensureProduct(tier: Plan['tier']): Promise<string> {
    const id = productIdOf(tier);
    try {
      const product = await this.stripe.products.retrieve(id);
      if (!product.active) await this.stripe.products.update(id, { active: true });
      return id;
    } catch (error) {
      if (!isStripeError(error, 'resource_missing')) throw error;
    }
    const name = `${BRAND_NAME} ${PRICING_PLANS.find((plan) => plan.tier === tier)!.name} membership`;
    try {
      await this.stripe.products.create({ id, name, metadata: { tier } }, { idempotencyKey: `realtypocket-product-${id}` });
    } catch (error) {
      // Another process created it a moment ago.
      if (!isStripeError(error, 'resource_already_exists')) throw error;
    }
    return id;
  }
}
