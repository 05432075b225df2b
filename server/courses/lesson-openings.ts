import { JOB_BATCHES } from '../../common/limits.ts';
import { mayStudyCourse } from '../../common/policies.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createNotifier, type Notifier } from '../notifications/notifier.ts';
import type { DataAccess } from '../repositories.ts';

// Drip: a member is told when a lesson opens to them (midnight, their time), on the site, by email
// and by push as they chose for course news, once: whichever process claims the opening first tells
// it, in the transaction that writes the claim; a member whose plan no longer reaches the course is
// not told (the claim still holds).

const { size, perRun } = JOB_BATCHES.lessonOpenings;

/** Tells members of the dripped lessons that opened to them; returns how many this process told. */
export async function tellLessonOpenings(
  data: DataAccess,
  mailer: Mailer,
  notifier: Notifier = createNotifier({ mailer, nudgePush: () => {} }),
  now = new Date(),
): Promise<number> {
  let told = 0;
  for (let batch = 0; batch < perRun; batch++) {
    const due = await data.courses.openingsDue(now, size);
    for (const { member, lesson, course } of due) {
      const sent = await data.transaction(async (tx) => {
        if (!(await tx.courses.claimOpeningTold(member.id, lesson.id))) return false;
        if (!mayStudyCourse(member, course)) return false;
        return notifier.notify(tx, member, {
          kind: 'course',
          groupKey: `lesson-open:${lesson.id}`,
          title: `Now open: ${lesson.title}`,
          body: `The next lesson of “${course.title}” is ready for you.`,
          url: `/courses/${course.id}`,
          requiredTier: course.tier,
        });
      });
      if (sent) told++;
    }
    if (due.length < size) break;
  }
  if (told > 0) notifier.nudge();
  return told;
}
