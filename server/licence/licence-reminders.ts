import { LICENCE_TYPE_LABEL } from '../../common/licence.contract.ts';
import { LICENCES } from '../../common/limits.ts';
import type { FileStorage } from '../files/storage.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createNotifier, type Notifier } from '../notifications/notifier.ts';
import type { DataAccess } from '../repositories.ts';
import { standingsOf } from './licence.service.ts';

// Renewal reminders (issue 33, part 4): 180, 90 and 30 days before a licence renews (the member's
// date), while hours are missing, each once: whichever process claims the stage first tells it, in
// the transaction that writes the claim, on the site and by mail as the member chose for reminders.
// A stage with nothing missing is claimed too, told nothing. Claims are the member's in the state, so
// removing the licence and adding it again, or moving its date, asks for no new reminder; a renewal
// date a cycle on starts anew.

/** Sends the renewal reminders due now; returns how many this process sent. */
export async function sendRenewalReminders(
  data: DataAccess,
  mailer: Mailer,
  notifier: Notifier = createNotifier({ mailer, nudgePush: () => {} }),
): Promise<number> {
  let sent = 0;
  for (let batch = 0; batch < LICENCES.reminderBatchesPerRun; batch++) {
    const due = await data.licence.remindersDue(LICENCES.reminderBatch);
    for (const { licence, stage, member } of due) {
      const told = await data.transaction(async (tx) => {
        const standing = (await standingsOf(tx, [member])).get(member.id)?.find((each) => each.id === licence.id);
        const missing = standing !== undefined && standing.hours_missing > 0;
        const claim = { memberId: member.id, state: licence.state, daysBefore: stage, renewsOn: licence.renewsOn, told: missing };
        if (!(await tx.licence.claimReminder(claim))) return false;
        if (!missing) return false;
        const topics = standing.topics.filter((topic) => topic.missing > 0).map((topic) => `${topic.label} ${topic.missing}`);
        return notifier.notify(tx, member, {
          kind: 'reminder',
          groupKey: `reminder:licence:${licence.id}:${licence.renewsOn}:${stage}`,
          title: `${standing.hours_missing} CE hours to go for your ${standing.state_name} licence`,
          body:
            `Your ${LICENCE_TYPE_LABEL[standing.licence_type].toLowerCase()} licence renews on ${standing.renews_on}, in ${standing.days_to_renewal} days.` +
            (topics.length > 0 ? ` Still needed: ${topics.join(', ')} hours.` : ''),
          url: '/licence',
          requiredTier: 'free',
        });
      });
      if (told) sent++;
    }
    if (due.length < LICENCES.reminderBatch) break;
  }
  if (sent > 0) notifier.nudge();
  return sent;
}

/**
 * Deletes from the file store the files whose rows are gone (a CE certificate with its entry or its
 * member's account, released by the database); a file the store cannot delete now waits for the next run.
 */
export async function deleteReleasedFiles(data: DataAccess, storage: Pick<FileStorage, 'delete'>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const keys = await data.licence.releasedFiles(LICENCES.releaseBatch);
    const done: string[] = [];
    for (const key of keys) {
      try {
        await storage.delete(key);
        done.push(key);
      } catch {
        break;
      }
    }
    await data.licence.forgetReleased(done);
    deleted += done.length;
    if (done.length < keys.length || keys.length < LICENCES.releaseBatch) return deleted;
  }
}
