import { STREAM_BATCH } from '../../common/limits.ts';
import { mayJoinSession } from '../../common/policies.ts';
import { DEFAULT_TIME_ZONE, formatInZone } from '../../common/time-zones.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { Repositories } from '../repositories.ts';

// A full session's waiting list moves up when a place is given back or staff add places: in the
// transaction that freed the place, under the session's lock, first come first served. Members whose
// plan no longer reaches the session keep their turn (they may upgrade) but are passed over.

/** Gives the free places of a session to those waiting, and mails each their place. The session is locked by the caller. */
export async function fillFromWaitlist(tx: Repositories, mailer: Mailer, sessionId: string): Promise<number> {
  const row = await tx.coaching.find(sessionId);
  if (!row || row.session.cancelledAt || row.session.startsAt.getTime() <= Date.now()) return 0;
  let free = row.series.capacity - row.rsvpCount;
  if (free <= 0 || row.waitlistCount === 0) return 0;
  const pageUrl = mailer.link('/coaching', { session: sessionId });
  let given = 0;
  for (let from: { waitingSince: string; memberId: string } | undefined; free > 0;) {
    const batch = await tx.coaching.waiting(sessionId, STREAM_BATCH, from);
    for (const member of batch) {
      if (free === 0) break;
      if (!mayJoinSession({ membershipTier: member.membershipTier }, { minTier: row.series.minTier })) continue;
      await tx.coaching.removeFromWaitlist(sessionId, member.id);
      await tx.coaching.addRsvp(sessionId, member.id);
      await mailer.queue(
        tx,
        'coaching-place-opened',
        member.email,
        await mailTemplates.coachingPlaceOpened({
          name: member.name,
          title: row.series.title,
          when: formatInZone(row.session.startsAt, member.timeZone ?? DEFAULT_TIME_ZONE),
          pageUrl,
        }),
      );
      free--;
      given++;
    }
    if (batch.length < STREAM_BATCH) break;
    from = { waitingSince: batch.at(-1)!.waitingSince, memberId: batch.at(-1)!.id };
  }
  return given;
}
