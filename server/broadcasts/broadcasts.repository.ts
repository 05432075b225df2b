import { and, arrayOverlaps, asc, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Tier } from '../../common/tiers.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { broadcastDeliveries, broadcasts, enrolments, members, sessions, teamMembers } from '../../db/schema.ts';

// Broadcasts' tables. Lists are a page at a time, latest first; the audience is read a batch at a
// time in member id order, from where the sending last reached.

export type BroadcastRow = typeof broadcasts.$inferSelect;
const KEYED = { broadcast: broadcasts, key: sql<string>`${broadcasts.createdAt}::text` };
const SENT_KEYED = { broadcast: broadcasts, key: sql<string>`${broadcasts.sentAt}::text` };

export function createBroadcastsRepository(db: DatabaseOrTransaction) {
  return {
    async list(limit: number, before?: { at: string; id: string }) {
      return db
        .select(KEYED)
        .from(broadcasts)
        .where(before ? sql`(${broadcasts.createdAt}, ${broadcasts.id}) < (${before.at}::timestamptz, ${before.id}::uuid)` : undefined)
        .orderBy(desc(broadcasts.createdAt), desc(broadcasts.id))
        .limit(limit);
    },

    /** Sent broadcasts whose audience holds any of these tiers (the policy's broadcastAudiencesOf), latest first. */
    async sentTo(tiers: readonly Tier[], limit: number, before?: { at: string; id: string }) {
      return db
        .select(SENT_KEYED)
        .from(broadcasts)
        .where(
          and(
            eq(broadcasts.status, 'sent'),
            arrayOverlaps(broadcasts.audience, [...tiers]),
            before ? sql`(${broadcasts.sentAt}, ${broadcasts.id}) < (${before.at}::timestamptz, ${before.id}::uuid)` : undefined,
          ),
        )
        .orderBy(desc(broadcasts.sentAt), desc(broadcasts.id))
        .limit(limit);
    },

    async find(id: string): Promise<BroadcastRow | null> {
      const [row] = await db.select().from(broadcasts).where(eq(broadcasts.id, id));
      return row ?? null;
    },

    async insert(values: typeof broadcasts.$inferInsert): Promise<BroadcastRow> {
      const [row] = await db.insert(broadcasts).values(values).returning();
      return row!;
    },

    /** Changes a broadcast still a draft; false when it was sent or scheduled meanwhile. */
    async updateDraft(id: string, values: Partial<typeof broadcasts.$inferInsert>): Promise<boolean> {
      const changed = await db
        .update(broadcasts)
        .set(values)
        .where(and(eq(broadcasts.id, id), eq(broadcasts.status, 'draft')))
        .returning({ id: broadcasts.id });
      return changed.length > 0;
    },

    /** The broadcast due first, locked for this transaction; one another process works on is passed over. */
    async lockDue(now: Date): Promise<BroadcastRow | null> {
      const [row] = await db
        .select()
        .from(broadcasts)
        .where(and(inArray(broadcasts.status, ['scheduled', 'sending']), lte(broadcasts.sendAt, now)))
        .orderBy(asc(broadcasts.sendAt))
        .limit(1)
        .for('update', { skipLocked: true });
      return row ?? null;
    },

    /**
     * The next members of the broadcast's audience (their tier, enrolled in its course, not seen for
     * its days; never one who unsubscribed), in id order after `after`.
     */
    async audienceAfter(
      broadcast: Pick<BroadcastRow, 'audience' | 'audienceCourseId' | 'audienceTeamId' | 'inactiveDays'>,
      after: string | null,
      limit: number,
      now: Date,
    ) {
      const { audienceCourseId: courseId, inactiveDays: days } = broadcast;
      const seenSince = days ? new Date(now.getTime() - days * 24 * 60 * 60 * 1000) : null;
      return db
        .select({ id: members.id, email: members.email, emailOptOut: members.emailOptOut, membershipTier: members.membershipTier })
        .from(members)
        .where(
          and(
            inArray(members.membershipTier, broadcast.audience),
            eq(members.emailOptOut, false),
            after ? gt(members.id, after) : undefined,
            courseId
              ? sql`exists (select 1 from ${enrolments} where ${enrolments.memberId} = ${members.id} and ${enrolments.courseId} = ${courseId})`
              : undefined,
            broadcast.audienceTeamId
              ? sql`exists (select 1 from ${teamMembers} where ${teamMembers.memberId} = ${members.id} and ${teamMembers.teamId} = ${broadcast.audienceTeamId})`
              : undefined,
            seenSince
              ? sql`not exists (select 1 from ${sessions} where ${sessions.memberId} = ${members.id} and ${sessions.lastSeenAt} > ${seenSince.toISOString()}::timestamptz)`
              : undefined,
          ),
        )
        .orderBy(asc(members.id))
        .limit(limit);
    },

    async countClick(id: string): Promise<void> {
      await db
        .update(broadcasts)
        .set({ clicks: sql`${broadcasts.clicks} + 1` })
        .where(eq(broadcasts.id, id));
    },

    /** Claims the member's copy: true for the one claim; any other finds it written. */
    async claimDelivery(broadcastId: string, memberId: string): Promise<boolean> {
      const claimed = await db
        .insert(broadcastDeliveries)
        .values({ broadcastId, memberId })
        .onConflictDoNothing()
        .returning({ memberId: broadcastDeliveries.memberId });
      return claimed.length > 0;
    },

    /** Links the member's copy in the outbox to the delivery, for the delivered and failed counts. */
    async linkCopy(broadcastId: string, memberId: string, outboxMessageId: string): Promise<void> {
      await db
        .update(broadcastDeliveries)
        .set({ outboxMessageId })
        .where(and(eq(broadcastDeliveries.broadcastId, broadcastId), eq(broadcastDeliveries.memberId, memberId)));
    },

    async recordProgress(id: string, values: { reachedMemberId: string | null; sent: number; done: boolean; now: Date }) {
      await db
        .update(broadcasts)
        .set({
          reachedMemberId: values.reachedMemberId,
          sentCount: sql`${broadcasts.sentCount} + ${values.sent}`,
          status: values.done ? 'sent' : 'sending',
          ...(values.done && { sentAt: values.now }),
        })
        .where(eq(broadcasts.id, id));
    },
  };
}
