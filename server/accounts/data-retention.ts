import type { FastifyInstance } from 'fastify';
import { DATA_KEPT_AFTER_CANCELLATION_DAYS, ONE_ON_ONE_CHANGES, OUTBOX_KEPT_DAYS } from '../../common/limits.ts';
import { scheduleRepeating } from '../background-work.ts';
import type { DataAccess, RunsAlone } from '../repositories.ts';
import { ACCESS_STATUSES } from '../billing/membership-tier.ts';
import { deleteReleasedFiles } from '../licence/licence-reminders.ts';
import { LIFECYCLE } from '../../common/lifecycle-terms.ts';
import { removeTeamsOf } from '../teams/team-end.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;
/** Old mail removed per statement: a backlog goes in short steps. */
const PURGE_BATCH = 1000;

/**
 * SPEC 9 and the privacy policy: a cancelled member's data goes DATA_KEPT_AFTER_CANCELLATION_DAYS days
 * after their plan ends. Each goes as an account deletion does (everything of theirs, their name out
 * of the audit log); the invoices stay with the card payment provider, which keeps them as the law
 * requires. Returns how many members' data was removed.
 */
export async function removeLapsedMembers(data: DataAccess): Promise<number> {
  let removed = 0;
  for (;;) {
    const lapsed = await data.members.lapsedSince(DATA_KEPT_AFTER_CANCELLATION_DAYS, BATCH, ACCESS_STATUSES);
    for (const member of lapsed) {
      await data.transaction(async (tx) => {
        // A broker's teams go with them: each agent keeps only their own tier.
        await removeTeamsOf(tx, member.id, member.email);
        await tx.audit.forgetMember(member);
        await tx.outbox.forgetRecipient(member.email);
        await tx.members.delete(member.id);
      });
    }
    removed += lapsed.length;
    if (lapsed.length < BATCH) return removed;
  }
}

/**
 * Mail sent (or given up on) more than OUTBOX_KEPT_DAYS ago goes: it was kept for support, and holds
 * members' names and words. Returns how many messages were removed.
 */
export async function purgeOldMail(data: DataAccess, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - OUTBOX_KEPT_DAYS * DAY_MS);
  let purged = 0;
  for (;;) {
    const gone = await data.outbox.purgeSettled(before, PURGE_BATCH);
    purged += gone;
    if (gone < PURGE_BATCH) return purged;
  }
}

/** A member's 1-on-1 changes count for ONE_ON_ONE_CHANGES' window; older ones are no longer needed. */
export async function forgetCountedChanges(data: DataAccess, now = new Date()): Promise<number> {
  return data.oneOnOne.forgetChangesBefore(new Date(now.getTime() - ONE_ON_ONE_CHANGES.windowMs));
}

/** Lifecycle mails' claims older than LIFECYCLE.keptDays go: no occasion can come due again by then. */
export async function forgetOldLifecycleMails(data: DataAccess, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - LIFECYCLE.keptDays * DAY_MS);
  let forgotten = 0;
  for (;;) {
    const gone = await data.lifecycle.forgetSentBefore(before, PURGE_BATCH);
    forgotten += gone;
    if (gone < PURGE_BATCH) return forgotten;
  }
}

/** Runs the removal once a day (and a minute after start), in one process at a time. */
export function scheduleDataRetention(app: FastifyInstance, database: RunsAlone, data: DataAccess): void {
  const job = {
    name: 'data-retention' as const,
    onFailure: 'the daily data retention failed; trying again tomorrow',
    alone: database,
  };
  scheduleRepeating(app, job, async () => {
    const removed = await removeLapsedMembers(data);
    const purged = await purgeOldMail(data);
    await forgetCountedChanges(data);
    await forgetOldLifecycleMails(data);
    await deleteReleasedFiles(data, app.storage);
    if (removed > 0)
      app.log.info({ removed }, `removed the data of members whose plan ended ${DATA_KEPT_AFTER_CANCELLATION_DAYS} days ago`);
    if (purged > 0) app.log.info({ purged }, `removed mail sent more than ${OUTBOX_KEPT_DAYS} days ago`);
  });
}
