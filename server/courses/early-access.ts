import type { Tier } from '../../common/tiers.ts';
import { badRequest } from '../../common/errors.ts';
import { EARLY_ACCESS_TIER, opensEarly } from '../../common/policies.ts';
import { DEFAULT_TIME_ZONE, instantOf, localDateOf } from '../../common/time-zones.ts';
import type { DataAccess } from '../repositories.ts';
import { announce } from '../notifications/notification-jobs.ts';

// Gold's early access (decision 017): a course opens to Gold members first and to its own tier on a
// date. Until then its tier is Gold, so every access rule reads one column as it always did; the
// minute job below opens it when the date comes, in one statement that any number of processes may
// run at once (the first changes the rows, the others find none).

/** The stored tier columns of a course that opens to `tier`, to Gold members first until `until` (a date, midnight in the business's zone). */
export function tierColumns(tier: Tier, until: string | null, now = new Date()) {
  if (!until || !opensEarly({ tier })) return { tier, earlyAccessTier: null, earlyAccessUntil: null };
  const [year, month, day] = until.split('-').map(Number) as [number, number, number];
  const opensAt = instantOf({ year, month, day, hour: 0, minute: 0 }, DEFAULT_TIME_ZONE);
  if (opensAt <= now) throw badRequest('Early access must end on a date still to come.', 'early_access_until');
  return { tier: EARLY_ACCESS_TIER, earlyAccessTier: tier, earlyAccessUntil: opensAt };
}

/** The tier and early-access date staff chose, read back from the stored columns. */
export const chosenTier = (row: { tier: Tier; earlyAccessTier: Tier | null; earlyAccessUntil: Date | null }) => ({
  tier: row.earlyAccessTier ?? row.tier,
  until: row.earlyAccessUntil ? localDateOf(row.earlyAccessUntil, DEFAULT_TIME_ZONE) : null,
});

/** Opens every course whose early access has ended to its own tier, and records it; returns the courses opened. */
export async function endEarlyAccess(data: DataAccess, now = new Date()): Promise<string[]> {
  return data.transaction(async (tx) => {
    const opened = await tx.courses.endEarlyAccess(now);
    for (const course of opened) {
      // Now news for its own tier too (Gold members were told when it opened to them: told once).
      if (course.status === 'published')
        await announce(tx, {
          kind: 'course',
          groupKey: `course:${course.id}:opened`,
          title: `Now open to your plan: ${course.title}`,
          body: '',
          url: `/courses/${course.id}`,
          requiredTier: course.tier,
        });
      await tx.audit.record({
        actorEmail: 'scheduled job',
        action: 'course.early-access-ended',
        target: course.id,
        oldValue: EARLY_ACCESS_TIER,
        newValue: course.tier,
      });
    }
    return opened.map((course) => course.id);
  });
}
