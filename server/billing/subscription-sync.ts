import type Stripe from 'stripe';
import { hasEnded, planName, planOfLookupKey, type BillingPeriod, type PaidTier, type Plan } from '../../common/billing.contract.ts';
import { BILLING_PERIODS, PAID_TIERS } from '../../common/pricing.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { Repositories } from '../repositories.ts';
import type { SubscriptionRow } from './billing.repository.ts';
import { applyMembershipTier } from './membership-tier.ts';
import { fromUnix, knownStatus } from './stripe-values.ts';
import { endGoneTeam, syncTeamSubscription } from '../teams/team-sync.ts';
import { isStripeError, type StripeGateway } from './stripe-gateway.ts';

/** Who the audit log names for changes that come from Stripe's events. */
export const STRIPE_ACTOR = 'Stripe';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const stripeId = (value: string | { id: string }) => (typeof value === 'string' ? value : value.id);

/** The plan of a price: its lookup key, else the metadata the site puts on the prices it creates. */
function planOfPrice(price: Stripe.Price): Plan | null {
  const byKey = planOfLookupKey(price.lookup_key);
  if (byKey) return byKey;
  const { tier, period } = price.metadata ?? {};
  if (PAID_TIERS.includes(tier as PaidTier) && BILLING_PERIODS.includes(period as BillingPeriod)) {
    return { tier: tier as PaidTier, period: period as BillingPeriod };
  }
  return null;
}

/** The offer a subscription was bought with, as checkout named it in its metadata (an offer of this site). */
async function offerOf(tx: Repositories, named: string | undefined, kept: string | null): Promise<string | null> {
  if (kept) return kept;
  if (!named || !UUID.test(named)) return null;
  return (await tx.offers.find(named))?.id ?? null;
}

export interface SyncDependencies {
  gateway: StripeGateway;
  mailer: Mailer;
  log: { warn(object: object, message: string): void };
}

/** The member a subscription belongs to: the one it names (checkout, metadata), else its Stripe customer's. */
async function memberOf(tx: Repositories, named: (string | null | undefined)[], customerId: string): Promise<string | null> {
  for (const id of named) {
    if (id && UUID.test(id) && (await tx.members.findById(id))) return id;
  }
  return (await tx.members.findByStripeCustomer(customerId))?.id ?? null;
}

/**
 * Reads the subscription from Stripe and stores it, then sets the member's tier from it. Holding
 * the subscription's lock while reading means the newest state always wins: an event that arrives
 * late, twice or out of order only ever causes a fresh read. Returns the stored row, or null when
 * the subscription belongs to no member of this site.
 */
/** Another process is handling this subscription right now: Stripe delivers the event again later. */
export class SubscriptionBusy extends Error {
  constructor(subscriptionId: string) {
    super(`Subscription ${subscriptionId} is being updated by another request`);
    this.name = 'SubscriptionBusy';
  }
}

/** A one-line summary of a subscription's state, for the audit log. */
const stateOf = (row: Pick<SubscriptionRow, 'tier' | 'period' | 'priceId' | 'status' | 'cancelAtPeriodEnd'>) =>
  `${row.tier && row.period ? planName({ tier: row.tier, period: row.period }) : row.priceId}, ${row.status}${row.cancelAtPeriodEnd ? ', ending' : ''}`;

export async function syncSubscription(
  tx: Repositories,
  deps: SyncDependencies,
  subscriptionId: string,
  context: { memberId?: string | null; actor: string; waitForLock?: boolean },
): Promise<SubscriptionRow | null> {
  // Webhooks do not wait for one another (Stripe retries a 503); a member's own change does.
  if (context.waitForLock === false) {
    if (!(await tx.billing.tryLockSubscription(subscriptionId))) throw new SubscriptionBusy(subscriptionId);
  } else {
    await tx.billing.lockSubscription(subscriptionId);
  }
  let subscription: Stripe.Subscription;
  try {
    subscription = await deps.gateway.stripe.subscriptions.retrieve(subscriptionId);
  } catch (error) {
    if (!isStripeError(error, 'resource_missing')) throw error;
    deps.log.warn({ subscription: subscriptionId }, 'a Stripe event names a subscription Stripe does not know');
    return null;
  }
  // A team's seats: kept with the team, never as the broker's own membership.
  if (subscription.metadata?.team_id) {
    if ((await syncTeamSubscription(tx, subscription, context.actor)) === 'gone') await endGoneTeam(tx, deps, subscription, context.actor);
    return null;
  }
  const previous = await tx.billing.findSubscription(subscriptionId);
  const customerId = stripeId(subscription.customer);
  const memberId = previous?.memberId ?? (await memberOf(tx, [context.memberId, subscription.metadata?.member_id], customerId));
  // The member's row first, then the subscription's: every change to a member's tier takes them in this order.
  const member = memberId ? await tx.members.lock(memberId) : null;
  if (!memberId || !member) {
    await endOrphan(deps, subscription);
    return null;
  }
  await tx.members.linkStripeCustomer(memberId, customerId);

  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
  const plan = planOfPrice(item.price);
  // Newer cancellations (the customer portal's among them) set a date instead of the flag.
  const ending = subscription.cancel_at_period_end || subscription.cancel_at !== null;
  const row = await tx.billing.saveSubscription({
    id: subscription.id,
    memberId,
    customerId,
    status: knownStatus(subscription.status),
    tier: plan?.tier ?? null,
    period: plan?.period ?? null,
    priceId: item.price.id,
    amountCents: (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
    currency: item.price.currency,
    currentPeriodEnd: fromUnix(subscription.cancel_at ?? item.current_period_end),
    cancelAtPeriodEnd: ending,
    startedAt: fromUnix(subscription.start_date),
    endedAt: subscription.ended_at ? fromUnix(subscription.ended_at) : null,
    offerId: await offerOf(tx, subscription.metadata?.offer_id, previous?.offerId ?? null),
    trialEndsAt: subscription.trial_end ? fromUnix(subscription.trial_end) : null,
  });
  // An account has one free trial, ever: this subscription began one.
  if (subscription.trial_end) await tx.offers.noteTrialUsed(memberId);

  const account = await tx.members.findAccount({ id: memberId });
  if (!account) return row;
  // What Stripe changed by itself (renewals, failed payments, the customer portal) is in the audit log
  // too; the site's own changes are recorded by the action that made them.
  if (context.actor === STRIPE_ACTOR && (!previous || stateOf(previous) !== stateOf(row))) {
    await tx.audit.record({
      actorEmail: STRIPE_ACTOR,
      action: 'billing.subscription',
      target: account.email,
      oldValue: previous ? stateOf(previous) : null,
      newValue: stateOf(row),
    });
  }
  const change = await applyMembershipTier(tx, memberId);
  if (change) {
    await tx.audit.record({
      actorEmail: context.actor,
      action: 'billing.tier',
      target: account.email,
      oldValue: change.from,
      newValue: change.to,
    });
  }
  // The member hears once that their membership will end, however the cancellation was asked for.
  if (row.cancelAtPeriodEnd && !previous?.cancelAtPeriodEnd && !hasEnded(row.status) && row.tier && row.period) {
    const mail = await mailTemplates.cancellationScheduled({
      name: account.name,
      plan: planName({ tier: row.tier, period: row.period }),
      endsOn: row.currentPeriodEnd,
      billingUrl: deps.mailer.link('/account/billing'),
    });
    await deps.mailer.queue(tx, 'billing-cancellation-scheduled', account.email, mail);
  }
  return row;
}

/**
 * A subscription the site started for a member who is gone (their account was deleted while it
 * was being paid for) must not go on charging them: it ends now.
 */
async function endOrphan(deps: SyncDependencies, subscription: Stripe.Subscription): Promise<void> {
  if (!subscription.metadata?.member_id || hasEnded(knownStatus(subscription.status))) {
    deps.log.warn({ subscription: subscription.id }, 'a Stripe subscription belongs to no member');
    return;
  }
  deps.log.warn({ subscription: subscription.id }, 'ending a subscription whose member account no longer exists');
  try {
    await deps.gateway.stripe.subscriptions.cancel(subscription.id);
  } catch (error) {
    if (!isStripeError(error, 'resource_missing')) throw error;
  }
}
