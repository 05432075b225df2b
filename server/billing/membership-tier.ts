import { givesAccess, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../common/billing.contract.ts';
import type { PaidTier } from '../../common/pricing.ts';
import { higherTier, type Tier } from '../../common/tiers.ts';
import type { Repositories } from '../repositories.ts';

/**
 * The tier a member has: the higher of the tier staff gave them and the tier of any subscription
 * that gives access (their own, or their team's while they hold one of its seats). So a payment event never takes away a complimentary tier, and a staff change
 * never takes away what a member pays for.
 */
export function effectiveTier(
  complimentary: PaidTier | null,
  subscriptions: { status: SubscriptionStatus; tier: PaidTier | null }[],
): Tier {
  const candidates: Tier[] = [complimentary ?? 'free'];
  for (const subscription of subscriptions) if (subscription.tier && givesAccess(subscription.status)) candidates.push(subscription.tier);
  return candidates.reduce(higherTier, 'free');
}

/** The statuses in which a subscription (a member's own, or a team's) gives its tier. */
export const ACCESS_STATUSES: readonly SubscriptionStatus[] = SUBSCRIPTION_STATUSES.filter(givesAccess);

/**
 * Sets the member's tier from their complimentary tier and subscriptions, inside the transaction
 * that changed either. Returns the change, or null when the tier stays (or the member is gone).
 */
export async function applyMembershipTier(
  tx: Pick<Repositories, 'members' | 'billing' | 'teams'>,
  memberId: string,
): Promise<{ from: Tier; to: Tier } | null> {
  const member = await tx.members.lock(memberId);
  if (!member) return null;
  // Their own subscriptions and their team's seat weigh alike: the member has the higher tier.
  const [own, team] = await Promise.all([tx.billing.accessOf(memberId), tx.teams.accessOf(memberId)]);
  const to = effectiveTier(member.complimentaryTier, [...own, ...team]);
  if (to === member.tier) return null;
  await tx.members.setTier(memberId, to);
  return { from: member.tier, to };
}

/**
 * Sets the member's tier again (applyMembershipTier) and, when it changes, says so in the audit log,
 * naming what changed it (`actor`: Stripe, the broker whose team ended, the daily tier check).
 */
export async function reapplyMembershipTier(
  tx: Pick<Repositories, 'members' | 'billing' | 'teams' | 'audit'>,
  memberId: string,
  actor: string,
): Promise<{ from: Tier; to: Tier } | null> {
  const change = await applyMembershipTier(tx, memberId);
  if (!change) return null;
  const account = await tx.members.findAccount({ id: memberId });
  await tx.audit.record({
    actorEmail: actor,
    action: 'billing.tier',
    target: account?.email ?? memberId,
    oldValue: change.from,
    newValue: change.to,
  });
  return change;
}
