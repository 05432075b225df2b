import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CaptionLanguage } from '../../common/course-kinds.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import type { StoredCaptions } from '../files/captions.ts';
import {
  recordingCaptions,
  calendarFeeds,
  coachingAttendance,
  coachingReminders,
  coachingRsvps,
  coachingSeries,
  coachingSessions,
  coachingWaitlist,
  members,
  staffAccounts,
  uploadedFiles,
} from '../../db/schema.ts';

// Live coaching's tables. Lists are a page at a time in the order of an index: upcoming sessions by
// start (then id), the recordings library latest first; keys carry PostgreSQL's own timestamp text.

type Series = typeof coachingSeries.$inferSelect;
type Session = typeof coachingSessions.$inferSelect;

/** Where a page of sessions in start order continues: after (or, going back, before) this session. */
export interface StartKey {
  startsAt: string;
  id: string;
}

const SESSION = {
  session: coachingSessions,
  series: coachingSeries,
  startKey: sql<string>`${coachingSessions.startsAt}::text`,
  rsvpCount: sql<number>`(select count(*)::int from ${coachingRsvps} where ${coachingRsvps.sessionId} = ${coachingSessions.id})`,
  attendedCount: sql<number>`(select count(*)::int from ${coachingAttendance} where ${coachingAttendance.sessionId} = ${coachingSessions.id})`,
  waitlistCount: sql<number>`(select count(*)::int from ${coachingWaitlist} where ${coachingWaitlist.sessionId} = ${coachingSessions.id})`,
};

/** A session with what its series says of it, its key, and how many places are taken and joined. */
export type SessionRow = {
  session: Session;
  series: Series;
  startKey: string;
  rsvpCount: number;
  attendedCount: number;
  waitlistCount: number;
};

/** A past session in the recordings library, with who may open its uploaded video (null: a public file, or a link). */
export type RecordingRow = SessionRow & { recordingFileTier: (typeof uploadedFiles.$inferSelect)['accessTier'] };

const endsAfter = (now: Date) =>
  sql`${coachingSessions.startsAt} + make_interval(mins => ${coachingSessions.durationMinutes}) > ${now.toISOString()}::timestamptz`;
const after = (key: StartKey | undefined) =>
  key ? sql`(${coachingSessions.startsAt}, ${coachingSessions.id}) > (${key.startsAt}::timestamptz, ${key.id})` : undefined;
const before = (key: StartKey | undefined) =>
  key ? sql`(${coachingSessions.startsAt}, ${coachingSessions.id}) < (${key.startsAt}::timestamptz, ${key.id})` : undefined;

export function createCoachingRepository(db: DatabaseOrTransaction) {
  const sessions = () =>
    db.select(SESSION).from(coachingSessions).innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId));

  return {
    /** Sessions not over yet and not cancelled, soonest first, after `from`. */
    async upcoming(now: Date, limit: number, from?: StartKey): Promise<SessionRow[]> {
      return sessions()
        .where(and(isNull(coachingSessions.cancelledAt), endsAfter(now), after(from)))
        .orderBy(asc(coachingSessions.startsAt), asc(coachingSessions.id))
        .limit(limit);
    },

    /** Staff's list: sessions to come (cancelled ones too) soonest first, or past ones latest first. */
    async forStaff(when: 'upcoming' | 'past', now: Date, limit: number, from?: StartKey): Promise<SessionRow[]> {
      const past = sql`not (${endsAfter(now)})`;
      return when === 'upcoming'
        ? sessions()
            .where(and(endsAfter(now), after(from)))
            .orderBy(asc(coachingSessions.startsAt), asc(coachingSessions.id))
            .limit(limit)
        : sessions()
            .where(and(past, before(from)))
            .orderBy(desc(coachingSessions.startsAt), desc(coachingSessions.id))
            .limit(limit);
    },

    /** Past sessions with a recording to watch (a video uploaded, or a link), latest first. */
    async recordings(limit: number, from?: StartKey): Promise<RecordingRow[]> {
      return db
        .select({ ...SESSION, recordingFileTier: uploadedFiles.accessTier })
        .from(coachingSessions)
        .innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId))
        .leftJoin(uploadedFiles, eq(uploadedFiles.id, coachingSessions.recordingFileId))
        .where(
          and(
            isNotNull(coachingSessions.recordedAt),
            or(isNotNull(coachingSessions.recordingFileId), isNotNull(coachingSessions.recordingUrl)),
            before(from),
          ),
        )
        .orderBy(desc(coachingSessions.startsAt), desc(coachingSessions.id))
        .limit(limit);
    },

    async find(sessionId: string): Promise<SessionRow | null> {
      const [row] = await sessions().where(eq(coachingSessions.id, sessionId));
      return row ?? null;
    },

    /** Holds the session's row until the transaction ends: RSVPs to it then count one at a time. */
    async lock(sessionId: string): Promise<void> {
      await db.select({ id: coachingSessions.id }).from(coachingSessions).where(eq(coachingSessions.id, sessionId)).for('update');
    },

    /** Which of these sessions the member RSVP'd to. */
    async rsvpedAmong(memberId: string, sessionIds: string[]): Promise<Set<string>> {
      if (sessionIds.length === 0) return new Set();
      const rows = await db
        .select({ sessionId: coachingRsvps.sessionId })
        .from(coachingRsvps)
        .where(and(eq(coachingRsvps.memberId, memberId), inArray(coachingRsvps.sessionId, sessionIds)));
      return new Set(rows.map((row) => row.sessionId));
    },

    /** Adds the member's place; false when they had one already. */
    async addRsvp(sessionId: string, memberId: string): Promise<boolean> {
      const added = await db
        .insert(coachingRsvps)
        .values({ sessionId, memberId })
        .onConflictDoNothing()
        .returning({ memberId: coachingRsvps.memberId });
      return added.length > 0;
    },

    async removeRsvp(sessionId: string, memberId: string): Promise<void> {
      await db.delete(coachingRsvps).where(and(eq(coachingRsvps.sessionId, sessionId), eq(coachingRsvps.memberId, memberId)));
    },

    /** Which of these sessions the member waits for a place in. */
    async waitlistedAmong(memberId: string, sessionIds: string[]): Promise<Set<string>> {
      if (sessionIds.length === 0) return new Set();
      const rows = await db
        .select({ sessionId: coachingWaitlist.sessionId })
        .from(coachingWaitlist)
        .where(and(eq(coachingWaitlist.memberId, memberId), inArray(coachingWaitlist.sessionId, sessionIds)));
      return new Set(rows.map((row) => row.sessionId));
    },

    async addToWaitlist(sessionId: string, memberId: string): Promise<void> {
      await db.insert(coachingWaitlist).values({ sessionId, memberId }).onConflictDoNothing();
    },

    async removeFromWaitlist(sessionId: string, memberId: string): Promise<void> {
      await db.delete(coachingWaitlist).where(and(eq(coachingWaitlist.sessionId, sessionId), eq(coachingWaitlist.memberId, memberId)));
    },

    /** Those waiting for a place, first come first (after `from`), with the tier each has now. */
    async waiting(sessionId: string, limit: number, from?: { waitingSince: string; memberId: string }) {
      return db
        .select({
          id: members.id,
          name: members.name,
          email: members.email,
          timeZone: members.timeZone,
          membershipTier: members.membershipTier,
          waitingSince: sql<string>`${coachingWaitlist.createdAt}::text`,
        })
        .from(coachingWaitlist)
        .innerJoin(members, eq(members.id, coachingWaitlist.memberId))
        .where(
          and(
            eq(coachingWaitlist.sessionId, sessionId),
            from
              ? sql`(${coachingWaitlist.createdAt}, ${coachingWaitlist.memberId}) > (${from.waitingSince}::timestamptz, ${from.memberId})`
              : undefined,
          ),
        )
        .orderBy(asc(coachingWaitlist.createdAt), asc(coachingWaitlist.memberId))
        .limit(limit);
    },

    /** The next session not over and not cancelled that the member RSVP'd to. */
    async nextRsvped(memberId: string, now: Date): Promise<SessionRow | null> {
      const [row] = await sessions()
        .innerJoin(coachingRsvps, and(eq(coachingRsvps.sessionId, coachingSessions.id), eq(coachingRsvps.memberId, memberId)))
        .where(and(isNull(coachingSessions.cancelledAt), endsAfter(now)))
        .orderBy(asc(coachingSessions.startsAt), asc(coachingSessions.id))
        .limit(1);
      return row ?? null;
    },

    /** The member's sessions from `since` on (their calendar feed), soonest first. */
    async rsvpedSince(memberId: string, since: Date, limit: number): Promise<SessionRow[]> {
      return sessions()
        .innerJoin(coachingRsvps, and(eq(coachingRsvps.sessionId, coachingSessions.id), eq(coachingRsvps.memberId, memberId)))
        .where(gt(coachingSessions.startsAt, since))
        .orderBy(asc(coachingSessions.startsAt), asc(coachingSessions.id))
        .limit(limit);
    },

    /** A session's uploaded recording, with the lowest tier that may watch it. */
    async recordingFile(sessionId: string) {
      const [row] = await db
        .select({ file: uploadedFiles, minTier: coachingSeries.minTier })
        .from(coachingSessions)
        .innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId))
        .innerJoin(uploadedFiles, eq(uploadedFiles.id, coachingSessions.recordingFileId))
        .where(eq(coachingSessions.id, sessionId));
      return row ?? null;
    },

    /** The captions of these sessions' recordings: their languages and files (not their cues). */
    async recordingCaptionsOf(sessionIds: string[]) {
      if (sessionIds.length === 0) return [];
      return db
        .select({
          sessionId: recordingCaptions.sessionId,
          language: recordingCaptions.language,
          fileId: recordingCaptions.fileId,
          filename: uploadedFiles.filename,
        })
        .from(recordingCaptions)
        .innerJoin(uploadedFiles, eq(uploadedFiles.id, recordingCaptions.fileId))
        .where(inArray(recordingCaptions.sessionId, sessionIds))
        .orderBy(asc(recordingCaptions.sessionId), asc(recordingCaptions.language));
    },

    /** Replaces a recording's captions with these (a language left out goes). */
    async setRecordingCaptions(sessionId: string, captions: StoredCaptions[]) {
      await db.delete(recordingCaptions).where(eq(recordingCaptions.sessionId, sessionId));
      if (captions.length > 0) await db.insert(recordingCaptions).values(captions.map((each) => ({ sessionId, ...each })));
    },

    /**
     * A recording's captions in one language, with what the recording's check reads (the session's
     * tier, the recording file's own); null when it has none in that language.
     */
    async recordingCaptions(sessionId: string, language: CaptionLanguage) {
      const recordingFile = alias(uploadedFiles, 'recording_file');
      const [row] = await db
        .select({
          file: uploadedFiles,
          cues: recordingCaptions.cues,
          minTier: coachingSeries.minTier,
          recordingFileId: coachingSessions.recordingFileId,
          recordingFileTier: recordingFile.accessTier,
        })
        .from(recordingCaptions)
        .innerJoin(uploadedFiles, eq(uploadedFiles.id, recordingCaptions.fileId))
        .innerJoin(coachingSessions, eq(coachingSessions.id, recordingCaptions.sessionId))
        .innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId))
        .leftJoin(recordingFile, eq(recordingFile.id, coachingSessions.recordingFileId))
        .where(and(eq(recordingCaptions.sessionId, sessionId), eq(recordingCaptions.language, language)));
      return row ?? null;
    },

    /** The member's RSVPs, oldest first, with whether they joined: their data, for 'Download my data'. */
    async rsvpsOf(memberId: string, limit: number, after?: { rsvpedAt: string; sessionId: string }) {
      return db
        .select({
          sessionId: coachingRsvps.sessionId,
          title: coachingSeries.title,
          startsAt: coachingSessions.startsAt,
          rsvpedAt: coachingRsvps.createdAt,
          rsvpedKey: sql<string>`${coachingRsvps.createdAt}::text`,
          joinedAt: coachingAttendance.joinedAt,
        })
        .from(coachingRsvps)
        .innerJoin(coachingSessions, eq(coachingSessions.id, coachingRsvps.sessionId))
        .innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId))
        .leftJoin(
          coachingAttendance,
          and(eq(coachingAttendance.sessionId, coachingRsvps.sessionId), eq(coachingAttendance.memberId, coachingRsvps.memberId)),
        )
        .where(
          and(
            eq(coachingRsvps.memberId, memberId),
            after
              ? sql`(${coachingRsvps.createdAt}, ${coachingRsvps.sessionId}) > (${after.rsvpedAt}::timestamptz, ${after.sessionId})`
              : undefined,
          ),
        )
        .orderBy(asc(coachingRsvps.createdAt), asc(coachingRsvps.sessionId))
        .limit(limit);
    },

    async recordAttendance(sessionId: string, memberId: string): Promise<void> {
      await db.insert(coachingAttendance).values({ sessionId, memberId }).onConflictDoNothing();
    },

    /** Those who RSVP'd, in the order they did, with whether they joined; after the member `from`. */
    async attendees(sessionId: string, limit: number, from?: { rsvpedAt: string; memberId: string }) {
      return db
        .select({
          memberId: members.id,
          name: members.name,
          email: members.email,
          rsvpedAt: coachingRsvps.createdAt,
          rsvpedKey: sql<string>`${coachingRsvps.createdAt}::text`,
          attended: sql<boolean>`exists (select 1 from ${coachingAttendance} where ${coachingAttendance.sessionId} = ${sessionId} and ${coachingAttendance.memberId} = ${members.id})`,
        })
        .from(coachingRsvps)
        .innerJoin(members, eq(members.id, coachingRsvps.memberId))
        .where(
          and(
            eq(coachingRsvps.sessionId, sessionId),
            from
              ? sql`(${coachingRsvps.createdAt}, ${coachingRsvps.memberId}) > (${from.rsvpedAt}::timestamptz, ${from.memberId})`
              : undefined,
          ),
        )
        .orderBy(asc(coachingRsvps.createdAt), asc(coachingRsvps.memberId))
        .limit(limit);
    },

    /** The members who RSVP'd, to tell them of a change, a batch at a time after `afterMemberId`. */
    async rsvpedMembers(sessionId: string, limit: number, afterMemberId?: string) {
      return db
        .select({ id: members.id, name: members.name, email: members.email, timeZone: members.timeZone })
        .from(coachingRsvps)
        .innerJoin(members, eq(members.id, coachingRsvps.memberId))
        .where(and(eq(coachingRsvps.sessionId, sessionId), afterMemberId ? gt(coachingRsvps.memberId, afterMemberId) : undefined))
        .orderBy(asc(coachingRsvps.memberId))
        .limit(limit);
    },

    /** The members waiting for a place at the session, by id, a batch after `afterMemberId`. */
    async waitingMembers(sessionId: string, limit: number, afterMemberId?: string) {
      return db
        .select({ id: members.id, name: members.name, email: members.email, timeZone: members.timeZone })
        .from(coachingWaitlist)
        .innerJoin(members, eq(members.id, coachingWaitlist.memberId))
        .where(and(eq(coachingWaitlist.sessionId, sessionId), afterMemberId ? gt(coachingWaitlist.memberId, afterMemberId) : undefined))
        .orderBy(asc(coachingWaitlist.memberId))
        .limit(limit);
    },

    // ---- Staff ---------------------------------------------------------------------------------

    async insertSeries(values: typeof coachingSeries.$inferInsert): Promise<Series> {
      const [row] = await db.insert(coachingSeries).values(values).returning();
      return row!;
    },

    async findSeries(seriesId: string): Promise<Series | null> {
      const [row] = await db.select().from(coachingSeries).where(eq(coachingSeries.id, seriesId));
      return row ?? null;
    },

    async updateSeries(seriesId: string, values: Partial<typeof coachingSeries.$inferInsert>): Promise<void> {
      await db
        .update(coachingSeries)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(coachingSeries.id, seriesId));
    },

    /** Makes these sessions of a series; a slot made already (by another process) is left as it is. */
    async planSessions(seriesId: string, slots: { plannedFor: Date; durationMinutes: number }[]): Promise<Session[]> {
      if (slots.length === 0) return [];
      return db
        .insert(coachingSessions)
        .values(
          slots.map((slot) => ({
            seriesId,
            plannedFor: slot.plannedFor,
            startsAt: slot.plannedFor,
            durationMinutes: slot.durationMinutes,
          })),
        )
        .onConflictDoNothing()
        .returning();
    },

    /** Weekly series still running, with the last slot planned for each. */
    async weeklyToPlan(): Promise<{ series: Series; lastPlanned: Date | null }[]> {
      return db
        .select({
          series: coachingSeries,
          lastPlanned:
            sql<Date | null>`(select max(${coachingSessions.plannedFor}) from ${coachingSessions} where ${coachingSessions.seriesId} = ${coachingSeries.id})`.mapWith(
              (value: string | Date | null) => (value === null ? null : new Date(value)),
            ),
        })
        .from(coachingSeries)
        .where(and(eq(coachingSeries.weekly, true), isNull(coachingSeries.endedAt)));
    },

    /** A series' sessions still to come and not cancelled. */
    async comingOfSeries(seriesId: string, now: Date): Promise<Session[]> {
      return db
        .select()
        .from(coachingSessions)
        .where(and(eq(coachingSessions.seriesId, seriesId), isNull(coachingSessions.cancelledAt), gt(coachingSessions.startsAt, now)))
        .orderBy(asc(coachingSessions.startsAt));
    },

    async updateSession(sessionId: string, values: Partial<typeof coachingSessions.$inferInsert>): Promise<void> {
      await db.update(coachingSessions).set(values).where(eq(coachingSessions.id, sessionId));
    },

    /** Raises the session's revision (calendars replace their copy) along with a change of time or status. */
    async reviseSession(sessionId: string, values: Partial<typeof coachingSessions.$inferInsert>): Promise<void> {
      await db
        .update(coachingSessions)
        .set({ ...values, revision: sql`${coachingSessions.revision} + 1` })
        .where(eq(coachingSessions.id, sessionId));
    },

    /** Every staff account, by the name members see (a handful: the whole list). */
    async hosts() {
      return db
        .select({ id: staffAccounts.id, email: staffAccounts.email, displayName: staffAccounts.displayName })
        .from(staffAccounts)
        .orderBy(asc(staffAccounts.email));
    },

    async setDisplayName(staffId: string, displayName: string): Promise<void> {
      await db.update(staffAccounts).set({ displayName }).where(eq(staffAccounts.id, staffId));
    },

    /** The name members see on every series this staff member hosts. */
    async renameHost(staffId: string, hostName: string): Promise<void> {
      await db.update(coachingSeries).set({ hostName }).where(eq(coachingSeries.hostStaffId, staffId));
    },

    // ---- Reminders -------------------------------------------------------------------------------

    /**
     * RSVPs whose reminder of this kind is due: the session starts within `lead` from now (but not
     * more than the grace earlier), and no reminder of this kind named this start yet.
     */
    async dueReminders(kind: 'day' | 'hour', now: Date, leadMs: number, graceMs: number, limit: number) {
      const due = new Date(now.getTime() + leadMs);
      const notBefore = new Date(now.getTime() + leadMs - graceMs);
      return db
        .select({
          sessionId: coachingSessions.id,
          startsAt: coachingSessions.startsAt,
          durationMinutes: coachingSessions.durationMinutes,
          title: coachingSeries.title,
          hostName: coachingSeries.hostName,
          member: {
            id: members.id,
            name: members.name,
            email: members.email,
            emailOptOut: members.emailOptOut,
            timeZone: members.timeZone,
          },
        })
        .from(coachingRsvps)
        .innerJoin(coachingSessions, eq(coachingSessions.id, coachingRsvps.sessionId))
        .innerJoin(coachingSeries, eq(coachingSeries.id, coachingSessions.seriesId))
        .innerJoin(members, eq(members.id, coachingRsvps.memberId))
        .where(
          and(
            isNull(coachingSessions.cancelledAt),
            lte(coachingSessions.startsAt, due),
            gt(coachingSessions.startsAt, notBefore),
            gt(coachingSessions.startsAt, now),
            sql`not exists (select 1 from ${coachingReminders} where ${coachingReminders.sessionId} = ${coachingSessions.id}
              and ${coachingReminders.memberId} = ${coachingRsvps.memberId} and ${coachingReminders.kind} = ${kind}
              and ${coachingReminders.startsAt} = ${coachingSessions.startsAt})`,
          ),
        )
        .orderBy(asc(coachingSessions.startsAt))
        .limit(limit);
    },

    /** Claims a reminder: true for the one process whose row this is; any other finds it written. */
    async claimReminder(values: { sessionId: string; memberId: string; kind: 'day' | 'hour'; startsAt: Date }): Promise<boolean> {
      const claimed = await db.insert(coachingReminders).values(values).onConflictDoNothing().returning({ kind: coachingReminders.kind });
      return claimed.length > 0;
    },

    // ---- Calendar feeds --------------------------------------------------------------------------

    async feedOf(memberId: string) {
      const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.memberId, memberId));
      return row ?? null;
    },

    async memberOfFeed(tokenHash: string): Promise<string | null> {
      const [row] = await db.select({ memberId: calendarFeeds.memberId }).from(calendarFeeds).where(eq(calendarFeeds.tokenHash, tokenHash));
      return row?.memberId ?? null;
    },

    async setFeed(memberId: string, tokenHash: string): Promise<void> {
      await db
        .insert(calendarFeeds)
        .values({ memberId, tokenHash })
        .onConflictDoUpdate({ target: calendarFeeds.memberId, set: { tokenHash, createdAt: new Date() } });
    },

    async deleteFeed(memberId: string): Promise<void> {
      await db.delete(calendarFeeds).where(eq(calendarFeeds.memberId, memberId));
    },
  };
}
