import { JOB_BATCHES } from '../../common/limits.ts';
import { DEFAULT_TIME_ZONE } from '../../common/time-zones.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createNotifier, type Notifier } from '../notifications/notifier.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import { goalViews } from './goals.service.ts';

// Goal reminders: at the hour of the member's day they chose, daily or on their weekday. Each is
// sent once per goal and local date, whichever process gets there first (the claim is written with
// the mail); it reaches the member as they chose for reminders (on the site, by email, by push), and
// a member who unsubscribed from optional mail is not mailed; the claim still holds.

const { size, perRun } = JOB_BATCHES.goalReminders;

/** Sends the goal reminders due now (on the site, by email and push, as the member chose); returns how many this process sent. */
export async function sendGoalReminders(
  data: DataAccess,
  mailer: Mailer,
  notifier: Notifier = createNotifier({ mailer, nudgePush: () => {} }),
): Promise<number> {
  let sent = 0;
  for (let batch = 0; batch < perRun; batch++) {
    const due = await data.goals.remindersDue(size);
    for (const { goal, member, localDate } of due) {
      const told = await data.transaction(async (tx) => {
        if (!(await tx.goals.claimReminder(goal.id, localDate))) return false;
        const [standing] = await goalViews(tx, [goal], member.id, member.timeZone ?? DEFAULT_TIME_ZONE);
        return notifier.notify(tx, member, {
          kind: 'reminder',
          groupKey: `reminder:goal:${goal.id}:${localDate}`,
          title: `Your goal: ${standing!.title}`,
          body: `${standing!.done} of ${standing!.target}${standing!.unit ? ` ${standing!.unit}` : ''} ${standing!.period_label}.`,
          url: '/dashboard',
          requiredTier: 'free',
          mailKind: 'goal-reminder',
          mail: (unsubscribeUrl) =>
            mailTemplates.goalReminder({ name: member.name, goal: standing!, pageUrl: mailer.link('/dashboard'), unsubscribeUrl }),
        });
      });
      if (told) sent++;
    }
    if (due.length < size) break;
  }
  if (sent > 0) notifier.nudge();
  return sent;
}
