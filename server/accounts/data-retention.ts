import type { FastifyInstance } from 'fastify';
import { DATA_KEPT_AFTER_CANCELLATION_DAYS } from '../../common/limits.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { loggableError } from '../http/errors.ts';
import type { DataAccess } from '../repositories.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;

/**
 * SPEC 9 and the privacy policy: a cancelled member's data goes 90 days after their plan ends. Each
 * goes as an account deletion does (everything of theirs, their name out of the audit log); the
 * invoices stay with the card payment provider, which keeps them as the law requires. Returns how
 * many members' data was removed.
 */
export async function removeLapsedMembers(data: DataAccess): Promise<number> {
  let removed = 0;
  for (;;) {
    const lapsed = await data.members.lapsedSince(DATA_KEPT_AFTER_CANCELLATION_DAYS, BATCH);
    for (const member of lapsed) {
      await data.transaction(async (tx) => {
        await tx.audit.forgetMember(member);
        await tx.members.delete(member.id);
      });
    }
    removed += lapsed.length;
    if (lapsed.length < BATCH) return removed;
  }
}

/** Runs the removal once a day (and a minute after start), in one process at a time. */
export function scheduleDataRetention(app: FastifyInstance, database: DatabaseHandle, data: DataAccess): void {
  const run = async () => {
    try {
      let removed = 0;
      await database.runAlone('data-retention', async () => {
        removed = await removeLapsedMembers(data);
      });
      if (removed > 0) app.log.info({ removed }, 'removed the data of members whose plan ended 90 days ago');
    } catch (error) {
      app.log.warn({ err: loggableError(error) }, 'the daily data retention failed; trying again tomorrow');
    }
  };
  const first = setTimeout(() => void run(), 60_000);
  const daily = setInterval(() => void run(), DAY_MS);
  first.unref();
  daily.unref();
  app.addHook('preClose', async () => {
    clearTimeout(first);
    clearInterval(daily);
  });
}
