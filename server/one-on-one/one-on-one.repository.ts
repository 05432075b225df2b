import { and, asc, desc, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import { ONE_ON_ONE } from '../../common/limits.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import {
  certificates,
  coachDaysOff,
  coachProfiles,
  coachWindows,
  enrolments,
  members,
  oneOnOneBookings,
  oneOnOneChanges,
  staffAccounts,
  type ONE_ON_ONE_CHANGE_KINDS,
} from '../../db/schema.ts';

type OneOnOneChangeKind = (typeof ONE_ON_ONE_CHANGE_KINDS)[number];
import type { CoachWeek, TimeRange } from './free-slots.ts';

// 1-on-1 coaching's tables: coaches' weeks, and the bookings, read a page at a time by start.

type Booking = typeof oneOnOneBookings.$inferSelect;
type Profile = typeof coachProfiles.$inferSelect;

/** Where a coach's list of bookings continues: after this booking, in start order. */
export interface BookingKey {
  startsAt: string;
  id: string;
}

const coachName = sql<string>`coalesce(nullif(${staffAccounts.displayName}, ''), split_part(${staffAccounts.email}, '@', 1))`;

/** A booking with its coach's name, email and meeting address, and the key that continues a list after it. */
export type BookingRow = {
  booking: Booking;
  coachName: string;
  coachEmail: string;
  meetingUrl: string | null;
  startKey: string;
  createdKey: string;
};

export function createOneOnOneRepository(db: DatabaseOrTransaction) {
  const bookings = () =>
    db
      .select({
        booking: oneOnOneBookings,
        coachName,
        coachEmail: staffAccounts.email,
        meetingUrl: coachProfiles.meetingUrl,
        startKey: sql<string>`${oneOnOneBookings.startsAt}::text`,
        createdKey: sql<string>`${oneOnOneBookings.createdAt}::text`,
      })
      .from(oneOnOneBookings)
      .innerJoin(staffAccounts, eq(staffAccounts.id, oneOnOneBookings.coachId))
      .leftJoin(coachProfiles, eq(coachProfiles.staffId, oneOnOneBookings.coachId));

  return {
    async profile(staffId: string): Promise<Profile | null> {
      const [row] = await db.select().from(coachProfiles).where(eq(coachProfiles.staffId, staffId));
      return row ?? null;
    },

    /** The coach's week: their profile, weekly windows, and days off from `fromDate` on. */
    async week(
      staffId: string,
      fromDate: string,
    ): Promise<(CoachWeek & { accepting: boolean; meetingUrl: string; daysOffList: string[] }) | null> {
      const profile = await this.profile(staffId);
      if (!profile) return null;
      const [windows, daysOff] = await Promise.all([
        db
          .select()
          .from(coachWindows)
          .where(eq(coachWindows.staffId, staffId))
          .orderBy(asc(coachWindows.weekday), asc(coachWindows.startsMinute)),
        db
          .select({ day: coachDaysOff.day })
          .from(coachDaysOff)
          .where(and(eq(coachDaysOff.staffId, staffId), gte(coachDaysOff.day, fromDate)))
          .orderBy(asc(coachDaysOff.day)),
      ]);
      const daysOffList = daysOff.map((row) => row.day);
      return {
        timeZone: profile.timeZone,
        slotMinutes: profile.slotMinutes,
        minNoticeHours: profile.minNoticeHours,
        accepting: profile.accepting,
        meetingUrl: profile.meetingUrl,
        windows,
        daysOff: new Set(daysOffList),
        daysOffList,
      };
    },

    /** Replaces the coach's profile, weekly windows and days off (days before `fromDate` are let go). */
    async saveWeek(
      staffId: string,
      week: Omit<Profile, 'staffId' | 'updatedAt'> & { windows: CoachWeek['windows']; daysOff: string[] },
      fromDate: string,
    ): Promise<void> {
      const profile = {
        timeZone: week.timeZone,
        accepting: week.accepting,
        slotMinutes: week.slotMinutes,
        minNoticeHours: week.minNoticeHours,
        meetingUrl: week.meetingUrl,
      };
      await db
        .insert(coachProfiles)
        .values({ staffId, ...profile })
        .onConflictDoUpdate({ target: coachProfiles.staffId, set: { ...profile, updatedAt: sql`now()` } });
      await db.delete(coachWindows).where(eq(coachWindows.staffId, staffId));
      if (week.windows.length > 0) await db.insert(coachWindows).values(week.windows.map((window) => ({ staffId, ...window })));
      await db.delete(coachDaysOff).where(eq(coachDaysOff.staffId, staffId));
      const kept = [...new Set(week.daysOff)].filter((day) => day >= fromDate);
      if (kept.length > 0) await db.insert(coachDaysOff).values(kept.map((day) => ({ staffId, day })));
    },

    /** Coaches taking 1-on-1s, by name. */
    async coaches(): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: staffAccounts.id, name: coachName })
        .from(coachProfiles)
        .innerJoin(staffAccounts, eq(staffAccounts.id, coachProfiles.staffId))
        .where(eq(coachProfiles.accepting, true))
        .orderBy(asc(coachName), asc(staffAccounts.id))
        .limit(ONE_ON_ONE.coachesListed);
    },

    async coachName(staffId: string): Promise<string | null> {
      const [row] = await db.select({ name: coachName }).from(staffAccounts).where(eq(staffAccounts.id, staffId));
      return row?.name ?? null;
    },

    /** The coach's live bookings that overlap [from, until), but the one being moved. */
    async bookedRanges(coachId: string, from: Date, until: Date, except?: string): Promise<TimeRange[]> {
      return db
        .select({ startsAt: oneOnOneBookings.startsAt, endsAt: oneOnOneBookings.endsAt })
        .from(oneOnOneBookings)
        .where(
          and(
            eq(oneOnOneBookings.coachId, coachId),
            isNull(oneOnOneBookings.cancelledAt),
            lt(oneOnOneBookings.startsAt, until),
            gt(oneOnOneBookings.endsAt, from),
            except ? sql`${oneOnOneBookings.id} <> ${except}` : undefined,
          ),
        );
    },

    async insert(values: {
      coachId: string;
      memberId: string;
      startsAt: Date;
      endsAt: Date;
      month: string;
      topic: string;
    }): Promise<string> {
      const [row] = await db.insert(oneOnOneBookings).values(values).returning({ id: oneOnOneBookings.id });
      return row!.id;
    },

    async find(bookingId: string): Promise<BookingRow | null> {
      const [row] = await bookings().where(eq(oneOnOneBookings.id, bookingId));
      return row ?? null;
    },

    /** The member's live bookings not over yet, soonest first. */
    async upcomingOf(memberId: string, now: Date, limit: number): Promise<BookingRow[]> {
      return bookings()
        .where(and(eq(oneOnOneBookings.memberId, memberId), isNull(oneOnOneBookings.cancelledAt), gt(oneOnOneBookings.endsAt, now)))
        .orderBy(asc(oneOnOneBookings.startsAt))
        .limit(limit);
    },

    /** Every booking of the member (cancelled ones too), oldest first: their data, for 'Download my data'. */
    async bookingsOf(memberId: string, limit: number, after?: { createdAt: string; id: string }) {
      return bookings()
        .where(
          and(
            eq(oneOnOneBookings.memberId, memberId),
            after
              ? sql`(${oneOnOneBookings.createdAt}, ${oneOnOneBookings.id}) > (${after.createdAt}::timestamptz, ${after.id})`
              : undefined,
          ),
        )
        .orderBy(asc(oneOnOneBookings.createdAt), asc(oneOnOneBookings.id))
        .limit(limit);
    },

    /** Whether the member holds a live booking in this month (its first day). */
    async holdsMonth(memberId: string, month: string): Promise<boolean> {
      const [row] = await db
        .select({ id: oneOnOneBookings.id })
        .from(oneOnOneBookings)
        .where(and(eq(oneOnOneBookings.memberId, memberId), eq(oneOnOneBookings.month, month), isNull(oneOnOneBookings.cancelledAt)))
        .limit(1);
      return row !== undefined;
    },

    async move(bookingId: string, range: TimeRange & { month: string }): Promise<void> {
      await db
        .update(oneOnOneBookings)
        .set({ ...range, revision: sql`${oneOnOneBookings.revision} + 1`, updatedAt: sql`now()` })
        .where(eq(oneOnOneBookings.id, bookingId));
    },

    /** Holds the member's row until the transaction ends: their changes to 1-on-1s are then counted one at a time. */
    async lockMember(memberId: string): Promise<void> {
      await db.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('no key update');
    },

    /** Notes a change the member made (booked, moved, cancelled): each is counted against their allowance. */
    async noteChange(memberId: string, bookingId: string, kind: OneOnOneChangeKind): Promise<void> {
      await db.insert(oneOnOneChanges).values({ memberId, bookingId, kind });
    },

    /** Forgets the changes made before `before`, counted no more; returns how many went. */
    async forgetChangesBefore(before: Date): Promise<number> {
      const gone = await db.delete(oneOnOneChanges).where(lt(oneOnOneChanges.createdAt, before)).returning({ id: oneOnOneChanges.id });
      return gone.length;
    },

    /** When the member's latest changes since `since` were made (at most `limit`, newest first). */
    async changesSince(memberId: string, since: Date, limit: number): Promise<Date[]> {
      const rows = await db
        .select({ createdAt: oneOnOneChanges.createdAt })
        .from(oneOnOneChanges)
        .where(and(eq(oneOnOneChanges.memberId, memberId), gt(oneOnOneChanges.createdAt, since)))
        .orderBy(desc(oneOnOneChanges.createdAt))
        .limit(limit);
      return rows.map((row) => row.createdAt);
    },

    async cancel(bookingId: string): Promise<void> {
      await db
        .update(oneOnOneBookings)
        .set({ cancelledAt: sql`now()`, revision: sql`${oneOnOneBookings.revision} + 1`, updatedAt: sql`now()` })
        .where(eq(oneOnOneBookings.id, bookingId));
    },

    /** The coach's live bookings not over yet, soonest first, with the member and how they are doing. */
    async forCoach(coachId: string, now: Date, limit: number, from?: BookingKey) {
      return db
        .select({
          booking: oneOnOneBookings,
          startKey: sql<string>`${oneOnOneBookings.startsAt}::text`,
          member: { id: members.id, name: members.name, email: members.email, tier: members.membershipTier },
          memberZone: members.timeZone,
          coursesEnrolled: sql<number>`(select count(*)::int from ${enrolments} where ${enrolments.memberId} = ${members.id})`,
          coursesCompleted: sql<number>`(select count(*)::int from ${certificates} where ${certificates.memberId} = ${members.id})`,
          lessonsCompleted: sql<number>`(select coalesce(sum(${enrolments.completedLessons}), 0)::int from ${enrolments} where ${enrolments.memberId} = ${members.id})`,
        })
        .from(oneOnOneBookings)
        .innerJoin(members, eq(members.id, oneOnOneBookings.memberId))
        .where(
          and(
            eq(oneOnOneBookings.coachId, coachId),
            isNull(oneOnOneBookings.cancelledAt),
            gt(oneOnOneBookings.endsAt, now),
            from ? sql`(${oneOnOneBookings.startsAt}, ${oneOnOneBookings.id}) > (${from.startsAt}::timestamptz, ${from.id})` : undefined,
          ),
        )
        .orderBy(asc(oneOnOneBookings.startsAt), asc(oneOnOneBookings.id))
        .limit(limit);
    },
  };
}
