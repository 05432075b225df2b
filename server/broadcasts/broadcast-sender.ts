import { blocksFor, parseBroadcast } from '../../common/broadcast-markup.ts';
import { JOB_BATCHES } from '../../common/limits.ts';
import type { Tier } from '../../common/tiers.ts';
import { queueOptionalMail, type Mailer } from '../mail/mailer.ts';
import { mailTemplates, type RenderedMail } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import type { BroadcastRow } from './broadcasts.repository.ts';
import { channelsOf } from '../notifications/notifier.ts';

// Sending a broadcast, run by the minute job in every process: a batch at a time, in one transaction
// that holds the broadcast's row (another process passes it over: SKIP LOCKED), claims each member's
// copy (a primary key) and queues the mails through the outbox. A crash loses the batch's work as a
// whole, and the next run takes it again from the last member reached.

const { size, perRun } = JOB_BATCHES.broadcasts;

/**
 * The mail a member of this tier gets: only the sections their tier reaches. Its links go through
 * the site's own redirect, which counts the click (and nothing of who made it).
 */
export function broadcastMail(mailer: Mailer, row: BroadcastRow, tier: Tier, unsubscribeUrl: string): Promise<RenderedMail> {
  return mailTemplates.broadcast({
    subject: row.subject,
    blocks: blocksFor(parseBroadcast(row.body), tier),
    absolute: (path) => mailer.link(path),
    tracked: (address) => mailer.link(`/api/broadcasts/${row.id}/go`, { to: address }),
    readOnSite: mailer.link(`/broadcasts/${row.id}`),
    unsubscribeUrl,
  });
}

/** Sends the batches due now; returns how many mails this process queued. */
export async function sendDueBroadcasts(data: DataAccess, mailer: Mailer, now = new Date()): Promise<number> {
  let sent = 0;
  for (let batch = 0; batch < perRun; batch++) {
    const queued = await data.transaction(async (tx) => {
      const row = await tx.broadcasts.lockDue(now);
      if (!row) return null;
      const audience = await tx.broadcasts.audienceAfter(row, row.reachedMemberId, size, now);
      // One rendering per tier and batch: the copies differ only by the sections a tier reaches.
      const rendered = new Map<string, Promise<RenderedMail>>();
      // Each member's choice for broadcasts: by email (the copy), on the site (the bell), by push.
      const choices = await tx.notifications.preferencesFor(
        audience.map((member) => member.id),
        'broadcast',
      );
      let count = 0;
      for (const member of audience) {
        if (!(await tx.broadcasts.claimDelivery(row.id, member.id))) continue;
        const channels = channelsOf(
          choices.filter((choice) => choice.memberId === member.id),
          'broadcast',
        );
        const notice = { title: row.subject, body: 'A message from the team: read it on the site.', url: `/broadcasts/${row.id}` };
        const told = await tx.notifications.put(
          member.id,
          { kind: 'broadcast', groupKey: `broadcast:${row.id}`, ...notice, requiredTier: 'free' },
          { gathers: false, shown: channels.site },
        );
        if (told && channels.push) await tx.notifications.queuePush(member.id, { ...notice, tag: `broadcast:${row.id}` }, 'free', told.id);
        if (!channels.email) continue;
        const copy = await queueOptionalMail(tx, mailer, member, 'broadcast', (unsubscribeUrl) => {
          const key = `${member.membershipTier} ${unsubscribeUrl}`;
          if (!rendered.has(key)) rendered.set(key, broadcastMail(mailer, row, member.membershipTier, unsubscribeUrl));
          return rendered.get(key)!;
        });
        if (copy) {
          await tx.broadcasts.linkCopy(row.id, member.id, copy);
          count++;
        }
      }
      await tx.broadcasts.recordProgress(row.id, {
        reachedMemberId: audience.at(-1)?.id ?? row.reachedMemberId,
        sent: count,
        done: audience.length < size,
        now,
      });
      return count;
    });
    if (queued === null) break;
    sent += queued;
  }
  if (sent > 0) mailer.nudge();
  return sent;
}
