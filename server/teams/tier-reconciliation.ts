import type { FastifyInstance } from 'fastify';
import { STREAM_BATCH } from '../../common/limits.ts';
import { ACCESS_STATUSES, reapplyMembershipTier } from '../billing/membership-tier.ts';
import { scheduleRepeating } from '../background-work.ts';
import type { DataAccess, Repositories, RunsAlone } from '../repositories.ts';

/** Who the audit log names for the tiers the daily check corrects. */
export const TIER_CHECK_ACTOR = 'Daily tier check';

/** Where the check runs: the database (a transaction per member), or inside one transaction already open. */
type Workplace = Pick<DataAccess, 'teams' | 'transaction'>;

/** One open transaction, used as the place a check runs (a webhook that found a team gone). */
export const within = (tx: Repositories): Workplace => ({ teams: tx.teams, transaction: (work) => work(tx) });

/**
 * Every member whose paid tier has no source (their own plan, a seat in a paid team, a tier staff
 * gave) has their tier set again by the one rule (server/billing/membership-tier.ts), with an audit
 * entry. A tier whose source ended out of the site's sight (a team's row removed by hand, an event
 * lost, a tier set in the database) is taken back here, whatever ended it. Returns how many were corrected.
 */
export async function correctTiersWithoutSource(place: Workplace, actor = TIER_CHECK_ACTOR): Promise<number> {
  let corrected = 0;
  for (let last: string | undefined; ;) {
    const ids = await place.teams.tierWithoutSource(ACCESS_STATUSES, STREAM_BATCH, last);
    for (const id of ids) if (await place.transaction((tx) => reapplyMembershipTier(tx, id, actor))) corrected += 1;
    if (ids.length < STREAM_BATCH) return corrected;
    last = ids.at(-1);
  }
}

/** The check, in one process at a time (however many run on the database). */
export async function runTierReconciliation(database: RunsAlone, data: DataAccess): Promise<number> {
  let corrected = 0;
  await database.runAlone('tier-reconciliation', async () => {
    corrected = await correctTiersWithoutSource(data);
  });
  return corrected;
}

/** Runs the check once a day (the first ten minutes after start, out of its rush), in one process at a time. */
export function scheduleTierReconciliation(app: FastifyInstance, database: RunsAlone, data: DataAccess): void {
  const job = {
    name: 'tier reconciliation' as const,
    onFailure: 'the daily tier check failed; trying again tomorrow',
  };
  scheduleRepeating(app, job, async () => {
    const corrected = await runTierReconciliation(database, data);
    if (corrected > 0) app.log.warn({ corrected }, 'corrected the tier of members whose tier had no source');
  });
}
