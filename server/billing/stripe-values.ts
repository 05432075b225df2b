import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../common/billing.contract.ts';

// Stripe's values as the site keeps them.

/** A Unix time (seconds) as a date. */
export const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** A status newer than this code gives nothing until the code knows it. */
export const knownStatus = (status: string): SubscriptionStatus =>
  (SUBSCRIPTION_STATUSES as readonly string[]).includes(status) ? (status as SubscriptionStatus) : 'incomplete';
