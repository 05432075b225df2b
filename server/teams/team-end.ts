import type { Repositories } from '../repositories.ts';
import { reapplyMembershipTier } from '../billing/membership-tier.ts';
import { STREAM_BATCH } from '../../common/limits.ts';

// A team can end with its row: its broker's account is deleted (teams.broker_id cascades). Its seats
// go with it, so each agent's tier is set again in the same transaction, before they are forgotten.

/** Removes the team, its seats and its invitations; each agent who held a seat keeps only their own tier. */
async function removeTeam(tx: Repositories, teamId: string, actor: string): Promise<void> {
  const team = await tx.teams.lock(teamId);
  if (!team) return;
  const agents: string[] = [];
  for (let last: string | undefined; ;) {
    const batch = await tx.teams.agentIds(team.id, STREAM_BATCH, last);
    agents.push(...batch);
    if (batch.length < STREAM_BATCH) break;
    last = batch.at(-1);
  }
  await tx.teams.remove(team.id);
  for (const agentId of agents) await reapplyMembershipTier(tx, agentId, actor);
  await tx.audit.record({
    actorEmail: actor,
    action: 'team.end',
    target: team.name,
    oldValue: { status: team.status, seats: team.seats, agents: agents.length },
    newValue: null,
  });
}

/** Every team the member manages ends before their account goes (their team's subscription is ended with theirs). */
export async function removeTeamsOf(tx: Repositories, brokerId: string, actor: string): Promise<void> {
  for (const teamId of await tx.teams.idsManagedBy(brokerId)) await removeTeam(tx, teamId, actor);
}
