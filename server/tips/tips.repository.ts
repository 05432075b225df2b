import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { members, weeklyTipMails } from '../../db/schema.ts';

// The weekly tips email's reads: the members of some time zones who get it and have not had this
// week's yet (on the partial index of those who get it), and the claim of each one's mail.

export function createTipsRepository(db: DatabaseOrTransaction) {
  return {
    /** Members of these zones (and, with `unsetZone`, those whose zone is not known yet) due this week's mail. */
    async weeklyDue(zones: string[], unsetZone: boolean, weekOf: string, limit: number) {
      return db
        .select({ id: members.id, name: members.name, email: members.email, emailOptOut: members.emailOptOut })
        .from(members)
        .where(
          and(
            sql`${members.weeklyTips} and not ${members.emailOptOut}`,
            or(zones.length > 0 ? inArray(members.timeZone, zones) : undefined, unsetZone ? isNull(members.timeZone) : undefined),
            sql`not exists (select 1 from ${weeklyTipMails} w where w.member_id = ${members.id} and w.week_of = ${weekOf})`,
          ),
        )
        .orderBy(asc(members.timeZone), asc(members.id))
        .limit(limit);
    },

    /** Claims the member's mail of that week: true for the one process that gets it. */
    async claimWeekly(memberId: string, weekOf: string): Promise<boolean> {
      const claimed = await db
        .insert(weeklyTipMails)
        .values({ memberId, weekOf })
        .onConflictDoNothing()
        .returning({ memberId: weeklyTipMails.memberId });
      return claimed.length > 0;
    },

    async setWeeklyTips(memberId: string, on: boolean): Promise<void> {
      await db.update(members).set({ weeklyTips: on }).where(eq(members.id, memberId));
    },
  };
}
