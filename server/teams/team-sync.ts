import type Stripe from 'stripe';
import { givesAccess } from '../../common/billing.contract.ts';
import { STREAM_BATCH } from '../../common/limits.ts';
import { applyMembershipTier } from '../billing/membership-tier.ts';
import { fromUnix, knownStatus } from '../billing/stripe-values.ts';
import type { Repositories } from '../repositories.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A team's subscription as Stripe has it now (read under the subscription's lock, like a member's):
 * its status and number of seats are kept with the team, and when whether it gives access changes,
 * each agent's tier is set again (the higher of their own and the team's), in the same transaction.
 */
export async function syncTeamSubscription(tx: Repositories, subscription: Stripe.Subscription, actor: string): Promise<void> {
  const teamId = subscription.metadata?.team_id;
  if (!teamId || !UUID.test(teamId)) return;
  const team = await tx.teams.lock(teamId);
  // Only the subscription bought for this team counts (a copied id in another's metadata does not).
  if (!team || (team.stripeSubscriptionId && team.stripeSubscriptionId !== subscription.id)) return;
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
  if (givesAccess(team.status) === givesAccess(status)) return;
  for (let last: string | undefined; ;) {
    const agents = await tx.teams.agentIds(team.id, STREAM_BATCH, last);
    for (const agentId of agents) await applyMembershipTier(tx, agentId);
    if (agents.length < STREAM_BATCH) return;
    last = agents.at(-1);
  }
}
