import { JOB_BATCHES, WEEKLY_TIPS } from '../../common/limits.ts';
import { addDays, DEFAULT_TIME_ZONE, localDateOf, localTimeOf } from '../../common/time-zones.ts';
import { queueOptionalMail, type Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import { tipOn } from '../resources/resources.service.ts';

// The weekly tips email: Monday morning in each member's time zone (WEEKLY_TIPS), the week's seven
// daily tips (the ones the dashboard shows day by day). Each member gets it once a week, whichever
// process sends it (the claim is written with the mail); members who switched it off on /account, or
// unsubscribed from optional mail, get none.

const { size, perRun } = JOB_BATCHES.weeklyTips;

/** Of these time zones (the members', and the default for those who set none), those where it is that hour of Monday now. */
function zonesOnMondayMorning(now: Date, zones: string[]): string[] {
  return [...new Set([...zones, DEFAULT_TIME_ZONE])].filter((zone) => {
    const local = localTimeOf(now, zone);
    return local.weekday === WEEKLY_TIPS.weekday && local.hour === WEEKLY_TIPS.hour;
  });
}

/** Queues this week's tips email for the members whose Monday morning it is; returns how many this process queued. */
export async function sendWeeklyTips(data: DataAccess, mailer: Mailer, now = new Date()): Promise<number> {
  const zones = zonesOnMondayMorning(now, await data.tips.weeklyZones());
  if (zones.length === 0) return 0;
  // Every zone listed shows the same Monday now (they are within the same hour of the clock).
  const weekOf = localDateOf(now, zones[0]!);
  const tips = await data.resources.dailyTips();
  if (tips.length === 0) return 0;
  const week = Array.from({ length: 7 }, (_, day) => tipOn(tips, addDays(weekOf, day))!).map((tip) => ({
    title: tip.title,
    text: tip.description,
  }));
  const unique = week.filter((tip, index) => week.findIndex((other) => other.title === tip.title) === index);
  let sent = 0;
  for (let batch = 0; batch < perRun; batch++) {
    const due = await data.tips.weeklyDue(zones, zones.includes(DEFAULT_TIME_ZONE), weekOf, size);
    for (const member of due) {
      const queued = await data.transaction(async (tx) => {
        if (!(await tx.tips.claimWeekly(member.id, weekOf))) return false;
        return queueOptionalMail(tx, mailer, member, 'weekly-tips', (unsubscribeUrl) =>
          mailTemplates.weeklyTips({ name: member.name, tips: unique, settingsUrl: mailer.link('/account'), unsubscribeUrl }),
        );
      });
      if (queued) sent++;
    }
    if (due.length < size) break;
  }
  if (sent > 0) mailer.nudge();
  return sent;
}
