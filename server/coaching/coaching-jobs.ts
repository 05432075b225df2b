import type { FastifyInstance } from 'fastify';
import { COACHING, JOB_BATCHES } from '../../common/limits.ts';
import { addLocalDays, DEFAULT_TIME_ZONE, formatInZone } from '../../common/time-zones.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sendGoalReminders } from '../goals/goal-reminders.ts';
import { sendWeeklyTips } from '../tips/weekly-tips.ts';
import { endEarlyAccess } from '../courses/early-access.ts';
import { tellLessonOpenings } from '../courses/lesson-openings.ts';
import { sendRenewalReminders } from '../licence/licence-reminders.ts';
import { sendDueBroadcasts } from '../broadcasts/broadcast-sender.ts';
import { handOutNews, sendDigests } from '../notifications/notification-jobs.ts';
import { createNotifier, type Notifier } from '../notifications/notifier.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import { sendLifecycleMail } from '../lifecycle/lifecycle-mail.ts';
import { runSteps, scheduleRepeating } from '../background-work.ts';
import { planningHorizon, slotsFrom } from './coaching-admin.service.ts';

// What runs on its own, every minute, in every process: weekly series planned weeks ahead, and the
// reminders a day and an hour before each session. Both are safe to run in several processes at
// once: a slot is made once (unique per series and slot) and a reminder is sent once (its row is
// claimed, with a primary key, in the transaction that queues its mail).

/** Plans every running weekly series up to the horizon; returns how many sessions were made. */
async function planWeeklySessions(data: DataAccess, now = new Date()): Promise<number> {
  const until = planningHorizon(now);
  let made = 0;
  for (const { series, lastPlanned } of await data.coaching.weeklyToPlan()) {
    if (!lastPlanned || lastPlanned >= until) continue;
    const next = addLocalDays(lastPlanned, 7, series.timeZone);
    if (next > until) continue;
    made += (await data.coaching.planSessions(series.id, slotsFrom(next, series, until))).length;
  }
  return made;
}

/** Sends the reminders due now, each once (on the site, by email and push, as the member chose); returns how many this process sent. */
export async function sendCoachingReminders(
  data: DataAccess,
  mailer: Mailer,
  now = new Date(),
  notifier: Notifier = createNotifier({ mailer, nudgePush: () => {} }),
): Promise<number> {
  let sent = 0;
  for (const kind of ['day', 'hour'] as const) {
    const due = await data.coaching.dueReminders(
      kind,
      now,
      COACHING.reminders[kind],
      COACHING.reminderGraceMs,
      JOB_BATCHES.coachingReminders.size,
    );
    for (const reminder of due) {
      const queued = await data.transaction(async (tx) => {
        const mine = await tx.coaching.claimReminder({
          sessionId: reminder.sessionId,
          memberId: reminder.member.id,
          kind,
          startsAt: reminder.startsAt,
        });
        if (!mine) return false;
        const when = formatInZone(reminder.startsAt, reminder.member.timeZone ?? DEFAULT_TIME_ZONE);
        const pageUrl = mailer.link('/coaching', { session: reminder.sessionId });
        await notifier.notify(tx, reminder.member, {
          kind: 'reminder',
          groupKey: `reminder:session:${reminder.sessionId}:${kind}:${reminder.startsAt.toISOString()}`,
          title: `${kind === 'day' ? 'Tomorrow' : 'In an hour'}: ${reminder.title}`,
          body: `${when} with ${reminder.hostName}.`,
          url: `/coaching?session=${reminder.sessionId}`,
          requiredTier: 'free',
          mailKind: `coaching-reminder-${kind}`,
          mail: (unsubscribeUrl) =>
            mailTemplates.coachingReminder({
              name: reminder.member.name,
              title: reminder.title,
              host: reminder.hostName,
              when,
              lead: kind,
              pageUrl,
              unsubscribeUrl,
            }),
        });
        return true;
      });
      if (queued) sent++;
    }
  }
  if (sent > 0) notifier.nudge();
  return sent;
}

/**
 * The work of one minute: the planning, the coaching and goal reminders, the weekly tips, the end of
 * Gold's early access, the dripped lessons' openings, the licences' renewal reminders, the broadcasts, news and digests due, the lifecycle mails. A minute with nothing due writes
 * nothing: a statement on a table the data versions watch would make every kept page stale in
 * every process, even when it changed no row.
 */
export async function runMinuteJobs(
  data: DataAccess,
  mailer: Mailer,
  notifier: Notifier,
  options: { lifecycleMail?: boolean } = {},
): Promise<void> {
  // Each step on its own (server/jobs/schedule.ts): one that fails leaves the others to run.
  await runSteps([
    ['weekly sessions', () => planWeeklySessions(data)],
    ['coaching reminders', () => sendCoachingReminders(data, mailer, new Date(), notifier)],
    ['goal reminders', () => sendGoalReminders(data, mailer, notifier)],
    ['weekly tips', () => sendWeeklyTips(data, mailer)],
    ['early access', () => endEarlyAccess(data)],
    ['lesson openings', () => tellLessonOpenings(data, mailer, notifier)],
    ['renewal reminders', () => sendRenewalReminders(data, mailer, notifier)],
    ['broadcasts', () => sendDueBroadcasts(data, mailer)],
    ['course news', () => handOutNews(data, mailer)],
    ['community digests', () => sendDigests(data, mailer)],
    ['lifecycle mail', () => (options.lifecycleMail === false ? Promise.resolve(0) : sendLifecycleMail(data, mailer))],
  ]).finally(() => notifier.nudge());
}

/** Runs the minute's work every minute (and shortly after start); a failure is logged and tried again next minute. */
export function scheduleCoachingJobs(
  app: FastifyInstance,
  data: DataAccess,
  mailer: Mailer,
  notifier: Notifier,
  options: { lifecycleMail?: boolean } = {},
): void {
  const job = {
    name: 'minute jobs' as const,
    onFailure: 'the coaching and goal reminders or the weekly tips could not run; trying again in a minute',
  };
  scheduleRepeating(app, job, () => runMinuteJobs(data, mailer, notifier, options));
}
