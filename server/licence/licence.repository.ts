import { and, asc, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { CeTopic, LicenceType, UsState } from '../../common/licence.contract.ts';
import { LICENCES } from '../../common/limits.ts';
import { DEFAULT_TIME_ZONE } from '../../common/time-zones.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import {
  ceEntries,
  ceRemindersSent,
  ceRequirements,
  certificates,
  courseCeApprovals,
  courses,
  memberLicences,
  members,
  storedFilesReleased,
} from '../../db/schema.ts';

// The CE ledger's tables. A licence's cycle is the state's cycle before its renewal date (two years
// where staff keep no requirement); its hours are summed per topic in SQL over that cycle only.

export type RequirementRow = typeof ceRequirements.$inferSelect;
export type LicenceRow = typeof memberLicences.$inferSelect;
export type CeEntryRow = typeof ceEntries.$inferSelect & { certificateCode: string | null };

/** Months a cycle lasts where staff keep no requirement for the state and licence type. */
const UNKNOWN_CYCLE_MONTHS = 24;

/** The cycle's first day before a renewal date: entries count from the day after it to the renewal date. */
const cycleStart = (cycleMonths: unknown) =>
  sql`(${memberLicences.renewsOn} - make_interval(months => coalesce(${cycleMonths}, ${UNKNOWN_CYCLE_MONTHS})))::date`;

/** A licence's entries: the member's, in its state, within its cycle. */
const inCycleOf = sql`${ceEntries.memberId} = ${memberLicences.memberId} and ${ceEntries.state} = ${memberLicences.state}
  and ${ceEntries.completedOn} > ${cycleStart(ceRequirements.cycleMonths)} and ${ceEntries.completedOn} <= ${memberLicences.renewsOn}`;

const requirementOf = and(eq(ceRequirements.state, memberLicences.state), eq(ceRequirements.licenceType, memberLicences.licenceType));

const entryColumns = { ...getTableColumns(ceEntries), certificateCode: certificates.code };

export function createLicenceRepository(db: DatabaseOrTransaction) {
  return {
    async requirements(limit: number): Promise<RequirementRow[]> {
      return db.select().from(ceRequirements).orderBy(asc(ceRequirements.state), asc(ceRequirements.licenceType)).limit(limit);
    },

    async findRequirement(state: UsState, licenceType: LicenceType): Promise<RequirementRow | null> {
      const [row] = await db
        .select()
        .from(ceRequirements)
        .where(and(eq(ceRequirements.state, state), eq(ceRequirements.licenceType, licenceType)));
      return row ?? null;
    },

    async saveRequirement(values: typeof ceRequirements.$inferInsert): Promise<RequirementRow> {
      const [row] = await db
        .insert(ceRequirements)
        .values(values)
        .onConflictDoUpdate({
          target: [ceRequirements.state, ceRequirements.licenceType],
          set: { ...values, updatedAt: sql`now()` },
        })
        .returning();
      return row!;
    },

    async removeRequirement(state: UsState, licenceType: LicenceType): Promise<boolean> {
      const removed = await db
        .delete(ceRequirements)
        .where(and(eq(ceRequirements.state, state), eq(ceRequirements.licenceType, licenceType)))
        .returning({ state: ceRequirements.state });
      return removed.length > 0;
    },

    /** The member's licences (a handful), with their state's requirement where staff keep one. */
    async licencesOf(memberIds: string[]): Promise<{ licence: LicenceRow; requirement: RequirementRow | null; cycleStartsOn: string }[]> {
      if (memberIds.length === 0) return [];
      const rows = await db
        .select({
          licence: memberLicences,
          requirement: ceRequirements,
          cycleStartsOn: sql<string>`${cycleStart(ceRequirements.cycleMonths)}::text`,
        })
        .from(memberLicences)
        .leftJoin(ceRequirements, requirementOf)
        .where(inArray(memberLicences.memberId, memberIds))
        .orderBy(asc(memberLicences.memberId), asc(memberLicences.renewsOn), asc(memberLicences.state))
        .limit(memberIds.length * LICENCES.maxPerMember);
      return rows;
    },

    /** Hours done in each licence's cycle, per topic. */
    async hoursInCycle(licenceIds: string[]): Promise<{ licenceId: string; topic: CeTopic; hours: number }[]> {
      if (licenceIds.length === 0) return [];
      return db
        .select({ licenceId: memberLicences.id, topic: ceEntries.topic, hours: sql<number>`sum(${ceEntries.hours})::float8` })
        .from(memberLicences)
        .leftJoin(ceRequirements, requirementOf)
        .innerJoin(ceEntries, inCycleOf)
        .where(inArray(memberLicences.id, licenceIds))
        .groupBy(memberLicences.id, ceEntries.topic);
    },

    async findLicence(id: string): Promise<LicenceRow | null> {
      const [row] = await db.select().from(memberLicences).where(eq(memberLicences.id, id));
      return row ?? null;
    },

    async countLicences(memberId: string): Promise<number> {
      const [row] = await db.select({ count: count() }).from(memberLicences).where(eq(memberLicences.memberId, memberId));
      return row?.count ?? 0;
    },

    async insertLicence(values: typeof memberLicences.$inferInsert): Promise<string> {
      const [row] = await db.insert(memberLicences).values(values).returning({ id: memberLicences.id });
      return row!.id;
    },

    async updateLicence(id: string, values: Pick<LicenceRow, 'state' | 'licenceType' | 'licenceNumber' | 'renewsOn'>): Promise<void> {
      await db.update(memberLicences).set(values).where(eq(memberLicences.id, id));
    },

    async removeLicence(id: string): Promise<void> {
      await db.delete(memberLicences).where(eq(memberLicences.id, id));
    },

    /** A page of the member's entries in a state, newest first, after a (completed_on, id). */
    async entries(memberId: string, state: UsState, limit: number, after?: { completedOn: string; id: string }): Promise<CeEntryRow[]> {
      return db
        .select(entryColumns)
        .from(ceEntries)
        .leftJoin(certificates, eq(certificates.id, ceEntries.certificateId))
        .where(
          and(
            eq(ceEntries.memberId, memberId),
            eq(ceEntries.state, state),
            after ? sql`(${ceEntries.completedOn}, ${ceEntries.id}) < (${after.completedOn}::date, ${after.id}::uuid)` : undefined,
          ),
        )
        .orderBy(desc(ceEntries.completedOn), desc(ceEntries.id))
        .limit(limit);
    },

    /** A page of a licence's cycle, oldest first (the PDF transcript and the zip read it page after page). */
    async cycleEntries(
      licence: { memberId: string; state: string; renewsOn: string },
      cycleStartsOn: string,
      limit: number,
      after?: { completedOn: string; id: string },
    ) {
      return db
        .select(entryColumns)
        .from(ceEntries)
        .leftJoin(certificates, eq(certificates.id, ceEntries.certificateId))
        .where(
          and(
            eq(ceEntries.memberId, licence.memberId),
            eq(ceEntries.state, licence.state as UsState),
            sql`${ceEntries.completedOn} > ${cycleStartsOn}::date and ${ceEntries.completedOn} <= ${licence.renewsOn}::date`,
            after ? sql`(${ceEntries.completedOn}, ${ceEntries.id}) > (${after.completedOn}::date, ${after.id}::uuid)` : undefined,
          ),
        )
        .orderBy(asc(ceEntries.completedOn), asc(ceEntries.id))
        .limit(limit);
    },

    /** Every entry of the member, oldest first, after `after`: their data, for 'Download my data'. */
    async entriesOf(memberId: string, limit: number, after?: { createdAt: string; id: string }) {
      return db
        .select({ ...entryColumns, createdKey: sql<string>`${ceEntries.createdAt}::text` })
        .from(ceEntries)
        .leftJoin(certificates, eq(certificates.id, ceEntries.certificateId))
        .where(
          and(
            eq(ceEntries.memberId, memberId),
            after ? sql`(${ceEntries.createdAt}, ${ceEntries.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : undefined,
          ),
        )
        .orderBy(asc(ceEntries.createdAt), asc(ceEntries.id))
        .limit(limit);
    },

    async findEntry(id: string): Promise<CeEntryRow | null> {
      const [row] = await db
        .select(entryColumns)
        .from(ceEntries)
        .leftJoin(certificates, eq(certificates.id, ceEntries.certificateId))
        .where(eq(ceEntries.id, id));
      return row ?? null;
    },

    async insertEntry(values: typeof ceEntries.$inferInsert): Promise<string> {
      const [row] = await db.insert(ceEntries).values(values).returning({ id: ceEntries.id });
      return row!.id;
    },

    async removeEntry(id: string): Promise<void> {
      await db.delete(ceEntries).where(eq(ceEntries.id, id));
    },

    /** A course's CE and the states that approve it. */
    async courseCe(courseId: string) {
      const [course] = await db
        .select({ ceHours: courses.ceHours, ceTopic: courses.ceTopic })
        .from(courses)
        .where(eq(courses.id, courseId));
      if (!course) return null;
      const approvals = await db
        .select({ state: courseCeApprovals.state, approvalNumber: courseCeApprovals.approvalNumber })
        .from(courseCeApprovals)
        .where(eq(courseCeApprovals.courseId, courseId))
        .orderBy(asc(courseCeApprovals.state));
      return { ...course, approvals };
    },

    async replaceApprovals(courseId: string, approvals: { state: UsState; approvalNumber: string }[]): Promise<void> {
      await db.delete(courseCeApprovals).where(eq(courseCeApprovals.courseId, courseId));
      if (approvals.length > 0) await db.insert(courseCeApprovals).values(approvals.map((approval) => ({ courseId, ...approval })));
    },

    /** A course's credit in each state that approves it: once per certificate and state, whoever writes it first. */
    async creditCourse(values: (typeof ceEntries.$inferInsert)[]): Promise<void> {
      if (values.length === 0) return;
      await db.insert(ceEntries).values(values).onConflictDoNothing();
    },

    /**
     * Licences at a reminder's stage (180, 90 or 30 days before renewal, in the member's zone) that
     * nobody has considered yet at that stage: the reminder job's batch.
     */
    async remindersDue(limit: number) {
      const [first, second, last] = [...LICENCES.reminderDays].sort((a, b) => b - a) as [number, number, number];
      const today = sql`(now() at time zone coalesce(${members.timeZone}, ${DEFAULT_TIME_ZONE}))::date`;
      const daysLeft = sql`(${memberLicences.renewsOn} - ${today})`;
      const stage = sql<number>`(case when ${daysLeft} <= ${last}::int then ${last}::int when ${daysLeft} <= ${second}::int then ${second}::int else ${first}::int end)`;
      return db
        .select({
          licence: memberLicences,
          stage,
          member: {
            id: members.id,
            name: members.name,
            email: members.email,
            emailOptOut: members.emailOptOut,
            timeZone: members.timeZone,
          },
        })
        .from(memberLicences)
        .innerJoin(members, eq(members.id, memberLicences.memberId))
        .where(
          and(
            // Within a day of the window in UTC, for the index; the member's own date decides.
            sql`${memberLicences.renewsOn} between (now() at time zone 'UTC')::date - 1 and (now() at time zone 'UTC')::date + ${first + 1}::int`,
            sql`${daysLeft} between 0 and ${first}::int`,
            // Told (or passed) at this stage for this member's licence in this state, for a renewal date
            // within the first stage's days of this one: the same renewal, however its date moved.
            sql`not exists (select 1 from ${ceRemindersSent} where ${ceRemindersSent.memberId} = ${memberLicences.memberId}
              and ${ceRemindersSent.state} = ${memberLicences.state} and ${ceRemindersSent.daysBefore} = ${stage}
              and abs(${ceRemindersSent.renewsOn} - ${memberLicences.renewsOn}) < ${first}::int)`,
          ),
        )
        .orderBy(asc(memberLicences.renewsOn), asc(memberLicences.id))
        .limit(limit);
    },

    /** Claims a stage's reminder for the member's licence in a state and its renewal date; false when another process did. */
    async claimReminder(claim: {
      memberId: string;
      state: UsState;
      daysBefore: number;
      renewsOn: string;
      told: boolean;
    }): Promise<boolean> {
      const claimed = await db
        .insert(ceRemindersSent)
        .values(claim)
        .onConflictDoNothing()
        .returning({ memberId: ceRemindersSent.memberId });
      return claimed.length > 0;
    },

    /** Stored files released by their rows (a CE certificate's entry removed), a batch at a time. */
    async releasedFiles(limit: number): Promise<string[]> {
      const rows = await db
        .select({ key: storedFilesReleased.storageKey })
        .from(storedFilesReleased)
        .orderBy(asc(storedFilesReleased.releasedAt))
        .limit(limit);
      return rows.map((row) => row.key);
    },

    async forgetReleased(keys: string[]): Promise<void> {
      if (keys.length > 0) await db.delete(storedFilesReleased).where(inArray(storedFilesReleased.storageKey, keys));
    },

    /** What the member keeps of certificates of CE elsewhere: how many, and their bytes. */
    async outsideCertificatesOf(memberId: string): Promise<{ count: number; bytes: number }> {
      const [row] = await db
        .select({ count: count(), bytes: sql<number>`coalesce(sum(${ceEntries.certificateBytes}), 0)::float8` })
        .from(ceEntries)
        .where(and(eq(ceEntries.memberId, memberId), eq(ceEntries.source, 'outside')));
      return { count: row?.count ?? 0, bytes: row?.bytes ?? 0 };
    },

    /** Holds the member's row until the transaction ends: their caps are counted and kept one change at a time. */
    async lockMember(memberId: string): Promise<void> {
      await db.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('update');
    },
  };
}
