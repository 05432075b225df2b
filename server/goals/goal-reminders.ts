import { DEFAULT_TIME_ZONE } from '../../common/time-zones.ts';
import { queueOptionalMail, type Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import { goalViews } from './goals.service.ts';

// Goal reminders: at the hour of the member's day they chose, daily or on their weekday. Each is
// sent once per goal and local date, whichever process gets there first (the claim is written with
// the mail); a member who unsubscribed from optional mail is not mailed, and the claim still holds.

const BATCH = 200;
/** Batches one run may take: a backlog is worked off over the next minutes, not in one long run. */
const MAX_BATCHES = 20;

/** Sends the goal reminders due now; returns how many this process queued. */
export async function sendGoalReminders(data: DataAccess, mailer: Mailer): Promise<number> {
  let sent = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = await data.goals.remindersDue(BATCH);
    for (const { goal, member, localDate } of due) {
      const queued = await data.transaction(async (tx) => {
        if (!(await tx.goals.claimReminder(goal.id, localDate))) return false;
        const [standing] = await goalViews(tx, [goal], member.id, member.timeZone ?? DEFAULT_TIME_ZONE);
        return queueOptionalMail(tx, mailer, member, 'goal-reminder', (unsubscribeUrl) =>
          mailTemplates.goalReminder({ name: member.name, goal: standing!, pageUrl: mailer.link('/dashboard'), unsubscribeUrl }),
        );
      });
      if (queued) sent++;
    }
    if (due.length < BATCH) break;
  }
  if (sent > 0) mailer.nudge();
  return sent;
}
