import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { BillingPeriod, PaidTier, SubscriptionStatus } from '../../common/billing.contract.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { billingEvents, subscriptions } from '../../db/schema.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionValues = Omit<typeof subscriptions.$inferInsert, 'createdAt' | 'updatedAt' | 'refundedAt' | 'refundedCents'>;

/** Not ended: canceled and expired subscriptions sort after every other. */
const liveFirst = sql`case when ${subscriptions.status} in ('canceled', 'incomplete_expired') then 1 else 0 end`;

export function createBillingRepository(db: DatabaseOrTransaction) {
  return {
    /**
     * Holds this subscription for the rest of the transaction, in every process: whoever holds it
     * reads Stripe and writes the row, so an older read never overwrites a newer one.
     */
    async lockSubscription(id: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`subscription:${id}`}, 0))`);
    },

    /** The same lock, if it is free now; false when another transaction holds it. */
    async tryLockSubscription(id: string): Promise<boolean> {
      const result = await db.execute<{ locked: boolean }>(
        sql`select pg_try_advisory_xact_lock(hashtextextended(${`subscription:${id}`}, 0)) as locked`,
      );
      return Boolean((result as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked);
    },

    /** Records an event as handled; false when it was handled before (or is being handled now, and then commits). */
    async recordEvent(id: string, type: string): Promise<boolean> {
      const rows = await db.insert(billingEvents).values({ id, type }).onConflictDoNothing().returning({ id: billingEvents.id });
      return rows.length > 0;
    },

    async findSubscription(id: string): Promise<SubscriptionRow | null> {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
      return row ?? null;
    },

    async saveSubscription(values: SubscriptionValues): Promise<SubscriptionRow> {
      const { id: _id, ...changes } = values;
      const [row] = await db
        .insert(subscriptions)
        .values(values)
        .onConflictDoUpdate({ target: subscriptions.id, set: { ...changes, updatedAt: new Date() } })
        .returning();
      return row!;
    },

    async markRefunded(id: string, refundedCents: number): Promise<void> {
      await db.update(subscriptions).set({ refundedAt: new Date(), refundedCents, updatedAt: new Date() }).where(eq(subscriptions.id, id));
    },

    /** Every subscription the member ever had, oldest first. */
    async subscriptionsOf(memberId: string): Promise<SubscriptionRow[]> {
      return db.select().from(subscriptions).where(eq(subscriptions.memberId, memberId)).orderBy(asc(subscriptions.startedAt));
    },

    /** Each member's current subscription: one that has not ended, else the latest. */
    async currentOf(memberIds: string[]): Promise<Map<string, SubscriptionRow>> {
      if (memberIds.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([subscriptions.memberId])
        .from(subscriptions)
        .where(inArray(subscriptions.memberId, memberIds))
        .orderBy(subscriptions.memberId, liveFirst, desc(subscriptions.startedAt));
      return new Map(rows.map((row) => [row.memberId, row]));
    },

    /** What the member's subscriptions give: the tier of each one, with its status. */
    async accessOf(memberId: string): Promise<{ status: SubscriptionStatus; tier: PaidTier | null }[]> {
      return db
        .select({ status: subscriptions.status, tier: subscriptions.tier })
        .from(subscriptions)
        .where(eq(subscriptions.memberId, memberId));
    },

    /** Paying subscriptions by plan, with their price. */
    async payingByPlan(): Promise<{ tier: PaidTier; period: BillingPeriod; currency: string; count: number; amountCents: number }[]> {
      const rows = await db
        .select({
          tier: subscriptions.tier,
          period: subscriptions.period,
          currency: subscriptions.currency,
          count: count(),
          amountCents: sql<string>`sum(${subscriptions.amountCents})`,
        })
        .from(subscriptions)
        .where(and(inArray(subscriptions.status, ['active', 'past_due']), sql`${subscriptions.tier} is not null`))
        .groupBy(subscriptions.tier, subscriptions.period, subscriptions.currency);
      return rows.map((row) => ({
        tier: row.tier!,
        period: row.period ?? 'monthly',
        currency: row.currency,
        count: row.count,
        amountCents: Number(row.amountCents),
      }));
    },
  };
}
