import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PaidTier } from '../../common/pricing.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { members, offers, planTrials, subscriptionPayments, subscriptions } from '../../db/schema.ts';

// Offer codes, each tier's free trial, the one trial an account has, and what each paid invoice
// brought (an offer's revenue).

export type OfferRow = typeof offers.$inferSelect;

export function createOffersRepository(db: DatabaseOrTransaction) {
  return {
    async insert(values: typeof offers.$inferInsert): Promise<OfferRow> {
      const [row] = await db.insert(offers).values(values).returning();
      return row!;
    },

    async find(id: string): Promise<OfferRow | null> {
      const [row] = await db.select().from(offers).where(eq(offers.id, id));
      return row ?? null;
    },

    async findByCode(code: string): Promise<OfferRow | null> {
      const [row] = await db
        .select()
        .from(offers)
        .where(sql`upper(${offers.code}) = upper(${code})`);
      return row ?? null;
    },

    /** Offers newest first, a page after `before`. */
    async list(limit: number, before?: { createdAt: string; id: string }) {
      return db
        .select({ row: offers, createdKey: sql<string>`${offers.createdAt}::text` })
        .from(offers)
        .where(before ? sql`(${offers.createdAt}, ${offers.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)` : undefined)
        .orderBy(desc(offers.createdAt), desc(offers.id))
        .limit(limit);
    },

    async end(id: string): Promise<void> {
      await db
        .update(offers)
        .set({ endedAt: sql`now()` })
        .where(and(eq(offers.id, id), isNull(offers.endedAt)));
    },

    /** Each offer's uses (subscriptions bought with it) and what they paid, for these offers. */
    async usesOf(offerIds: string[]): Promise<Map<string, { uses: number; revenueCents: number }>> {
      if (offerIds.length === 0) return new Map();
      const rows = await db
        .select({
          offerId: subscriptions.offerId,
          uses: sql<number>`count(distinct ${subscriptions.id})::int`,
          revenueCents: sql<number>`coalesce(sum(${subscriptionPayments.amountCents}), 0)::int`,
        })
        .from(subscriptions)
        .leftJoin(subscriptionPayments, eq(subscriptionPayments.subscriptionId, subscriptions.id))
        .where(inArray(subscriptions.offerId, offerIds))
        .groupBy(subscriptions.offerId);
      return new Map(rows.map((row) => [row.offerId!, { uses: row.uses, revenueCents: row.revenueCents }]));
    },

    async trials(): Promise<{ tier: PaidTier; days: number }[]> {
      return db.select({ tier: planTrials.tier, days: planTrials.days }).from(planTrials);
    },

    async setTrial(tier: PaidTier, days: number, updatedBy: string): Promise<void> {
      await db
        .insert(planTrials)
        .values({ tier, days, updatedBy })
        .onConflictDoUpdate({ target: planTrials.tier, set: { days, updatedBy, updatedAt: sql`now()` } });
    },

    /** Whether the member has had their free trial already. */
    async trialUsed(memberId: string): Promise<boolean> {
      const [row] = await db.select({ at: members.trialUsedAt }).from(members).where(eq(members.id, memberId));
      return row?.at !== null && row?.at !== undefined;
    },

    /** Notes the member's one trial (the first time only). */
    async noteTrialUsed(memberId: string): Promise<void> {
      await db
        .update(members)
        .set({ trialUsedAt: sql`now()` })
        .where(and(eq(members.id, memberId), isNull(members.trialUsedAt)));
    },

    /** What a paid invoice brought (once per invoice, however often Stripe tells of it). */
    async recordPayment(values: typeof subscriptionPayments.$inferInsert): Promise<void> {
      await db.insert(subscriptionPayments).values(values).onConflictDoNothing();
    },
  };
}
