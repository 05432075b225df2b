import { NOTIFICATIONS } from '../../common/limits.ts';
import { COMMUNITY_KINDS, NOTIFICATION_KIND_INFO } from '../../common/notifications.contract.ts';
import { notificationTiersOf, tiersReaching } from '../../common/policies.ts';
import { DEFAULT_TIME_ZONE, localDateOf, localTimeOf, weekdayOfDate } from '../../common/time-zones.ts';
import { queueOptionalMail, type Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import type { NewNotification } from './notifications.repository.ts';

// What the minute job does for the notifications centre, safe in several processes at once:
// news for a whole tier is handed out a batch of members at a time (the news row is held with SKIP
// LOCKED while a batch is written, and each member's notification is unique), and each member's
// community digest goes once per day or week (its period is claimed with the mail).

const MONDAY = 1;
const DAY_MS = 24 * 60 * 60 * 1000;

/** News for every member whose tier reaches `requiredTier`: a new session, recording or course. */
export async function announce(data: Pick<DataAccess, 'notifications'>, news: NewNotification): Promise<void> {
  await data.notifications.addFanout(news);
}

/** Hands out news waiting, a batch of members per step; returns how many members were told. */
export async function handOutNews(data: DataAccess, mailer: Mailer, maxSteps = 20): Promise<number> {
  let told = 0;
  for (let step = 0; step < maxSteps; step++) {
    const progressed = await data.transaction(async (tx) => {
      const news = await tx.notifications.claimFanout();
      if (!news) return false;
      const batch = await tx.notifications.fanoutMembers(news, tiersReaching(news.requiredTier), NOTIFICATIONS.handOutBatch);
      const byMail = await tx.notifications.handOut(news, batch, NOTIFICATION_KIND_INFO[news.kind].defaults);
      for (const member of byMail) {
        await queueOptionalMail(tx, mailer, member, `notification-${news.kind}`, (unsubscribeUrl) =>
          mailTemplates.notification({
            name: member.name,
            headline: news.title,
            body: news.body,
            url: mailer.link(news.url),
            settingsUrl: mailer.link('/notifications/settings'),
            unsubscribeUrl,
          }),
        );
      }
      told += batch.length;
      await tx.notifications.advanceFanout(news.id, batch.at(-1) ?? news.reachedMemberId, batch.length < NOTIFICATIONS.handOutBatch);
      return true;
    });
    if (!progressed) break;
  }
  if (told > 0) mailer.nudge();
  return told;
}

/** The digest periods due now in a zone: the day's at the digest hour, and the week's on Monday. */
function periodsDue(now: Date, zone: string): { daily?: string; weekly?: string } {
  const local = localTimeOf(now, zone);
  if (local.hour !== NOTIFICATIONS.digestHour) return {};
  const today = localDateOf(now, zone);
  return { daily: today, ...(weekdayOfDate(today) === MONDAY && { weekly: today }) };
}

/** Sends the community digests due now, each once; returns how many were mailed. */
export async function sendDigests(data: DataAccess, mailer: Mailer, now = new Date()): Promise<number> {
  const zones = await data.notifications.digestZones();
  let sent = 0;
  for (const digest of ['daily', 'weekly'] as const) {
    // Zones where it is the digest hour (null: members who set no zone, in the default one).
    const due = new Map<string, (string | null)[]>();
    for (const zone of zones) {
      const period = periodsDue(now, zone ?? DEFAULT_TIME_ZONE)[digest];
      if (period) due.set(period, [...(due.get(period) ?? []), zone]);
    }
    for (const [period, inZones] of due) {
      const since = new Date(now.getTime() - (digest === 'daily' ? 1 : 7) * DAY_MS);
      for (let batch = 0; batch < NOTIFICATIONS.handOutBatch; batch++) {
        const members = await data.notifications.digestsDue(digest, inZones, period, NOTIFICATIONS.handOutBatch);
        for (const member of members) {
          const mailed = await data.transaction(async (tx) => {
            if (!(await tx.notifications.claimDigest(member.id, period))) return false;
            const lines = await tx.notifications.communitySince(
              member.id,
              COMMUNITY_KINDS,
              notificationTiersOf(member),
              since,
              NOTIFICATIONS.digestLines,
            );
            if (lines.length === 0) return false;
            const queued = await queueOptionalMail(tx, mailer, member, `community-digest-${digest}`, (unsubscribeUrl) =>
              mailTemplates.communityDigest({
                name: member.name,
                period: digest,
                lines: lines.map((line) => ({ headline: line.title, body: line.body, url: mailer.link(line.url) })),
                pageUrl: mailer.link('/notifications'),
                settingsUrl: mailer.link('/notifications/settings'),
                unsubscribeUrl,
              }),
            );
            return queued !== null;
          });
          if (mailed) sent++;
        }
        if (members.length < NOTIFICATIONS.handOutBatch) break;
      }
    }
  }
  if (sent > 0) mailer.nudge();
  return sent;
}
