import type Stripe from 'stripe';
import { givesAccess, hasEnded } from '../../common/billing.contract.ts';
import { STREAM_BATCH } from '../../common/limits.ts';
import { reapplyMembershipTier } from '../billing/membership-tier.ts';
import { isStripeError } from '../billing/stripe-gateway.ts';
import { fromUnix, knownStatus } from '../billing/stripe-values.ts';
import type { Repositories } from '../repositories.ts';
import { correctTiersWithoutSource, within } from './tier-reconciliation.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A team's subscription as Stripe has it now (read under the subscription's lock, like a member's):
 * its status and number of seats are kept with the team, and each agent's tier is set again (the
 * higher of their own and the team's) when whether it gives access changes, or while it gives none,
 * in the same transaction. Answers 'gone' when the subscription names a team that no longer exists.
 */
export async function syncTeamSubscription(
  tx: Repositories,
  subscription: Stripe.Subscription,
  actor: string,
): Promise<'synced' | 'not-ours' | 'gone'> {
  const teamId = subscription.metadata?.team_id;
  if (!teamId || !UUID.test(teamId)) return 'not-ours';
  const team = await tx.teams.lock(teamId);
  if (!team) return 'gone';
  // Only the subscription bought for this team counts (a copied id in another's metadata does not).
  if (team.stripeSubscriptionId && team.stripeSubscriptionId !== subscription.id) return 'not-ours';
  const item = subscription.items.data[0];
  const status = knownStatus(subscription.status);
  await tx.teams.saveSubscription(team.id, {
    stripeSubscriptionId: subscription.id,
    status,
    seats: item?.quantity ?? team.seats,
    currentPeriodEnd: item ? fromUnix(subscription.cancel_at ?? item.current_period_end) : null,
  });
  if (team.status !== status) {
    await tx.audit.record({ actorEmail: actor, action: 'team.subscription', target: team.name, oldValue: team.status, newValue: status });
  }
  // A paid team staying paid changes no one's tier; an ended or unpaid one is checked every time.
  if (givesAccess(team.status) && givesAccess(status)) return 'synced';
  for (let last: string | undefined; ;) {
    const agents = await tx.teams.agentIds(team.id, STREAM_BATCH, last);
    for (const agentId of agents) await reapplyMembershipTier(tx, agentId, actor);
    if (agents.length < STREAM_BATCH) return 'synced';
    last = agents.at(-1);
  }
}

/**
 * A subscription of a team that is gone (removed with its broker's account, or by hand): its seats
 * went with it, so whoever held one no longer knows of it here. Every member whose tier has no source
 * is corrected now, and the subscription ends, so no one pays for seats that give nothing.
 */
export async function endGoneTeam(
  tx: Repositories,
  deps: { gateway: { stripe: Stripe }; log: { warn(object: object, message: string): void } },
  subscription: Stripe.Subscription,
  actor: string,
): Promise<void> {
  deps.log.warn({ subscription: subscription.id }, 'a Stripe subscription names a team that no longer exists');
  await correctTiersWithoutSource(within(tx), actor);
  if (hasEnded(knownStatus(subscription.status))) return;
  try {
    await deps.gateway.stripe.subscriptions.cancel(subscription.id);
  } catch (error) {
    if (!isStripeError(error, 'resource_missing')) throw error;
  }
}
