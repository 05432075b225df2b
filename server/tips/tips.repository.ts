import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { members, weeklyTipMails } from '../../db/schema.ts';

// The weekly tips email's reads: the members of some time zones who get it and have not had this
// week's yet (on the partial index of those who get it), and the claim of each one's mail.

export function createTipsRepository(db: DatabaseOrTransaction) {
  return {
    /**
     * The time zones of the members who get the weekly mail, as the members set them (any name the
     * browser gave, 'Asia/Kolkata' as well as 'Asia/Calcutta'): one probe of the partial index per
     * zone (a loose index scan), not one row per member.
     */
    async weeklyZones(): Promise<string[]> {
      const found = (await db.execute(sql`
        with recursive zones as (
          (select time_zone from members where weekly_tips and not email_opt_out and time_zone is not null order by time_zone limit 1)
          union all
          select (select m.time_zone from members m
                  where m.weekly_tips and not m.email_opt_out and m.time_zone > zones.time_zone
                  order by m.time_zone limit 1)
          from zones where zones.time_zone is not null
        )
        select time_zone from zones where time_zone is not null`)) as unknown as { rows: { time_zone: string }[] };
      return found.rows.map((row) => row.time_zone);
    },

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
