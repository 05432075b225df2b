import type { subscriptions } from '../../db/schema.ts';

type SubscriptionRow = typeof subscriptions.$inferInsert;

/**
 * A Silver monthly subscription as the billing mirror stores it (active, renewing in 30 days), for
 * tests that need a paying member without going through Stripe; `values` change what the test is about.
 */
export function silverSubscription(id: string, memberId: string, values: Partial<SubscriptionRow> = {}): SubscriptionRow {
  return {
    id,
    memberId,
    customerId: `cus_${id}`,
    status: 'active',
    tier: 'silver',
    period: 'monthly',
    priceId: 'price_silver_monthly',
    amountCents: 4900,
    currency: 'usd',
    currentPeriodEnd: new Date(Date.now() + 30 * 24 * 60 * 60_000),
    startedAt: new Date(),
    ...values,
  };
}
