import { and, asc, desc, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import type { ContactInput } from '../../common/contact.contract.ts';
import type { Tier } from '../../common/tiers.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';

export function createContactRepository(db: DatabaseOrTransaction) {
  return {
    async create(
      message: ContactInput & { ipAddress: string; memberId: string | null; senderTier: Tier | null; priority: boolean },
    ): Promise<void> {
      await db.insert(contactMessages).values(message);
    },

    /** Messages written from this address since then (each was answered there), read along the newest. */
    async countFrom(email: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ value: sql<number>`count(*)::int` })
        .from(contactMessages)
        .where(and(gt(contactMessages.createdAt, since), eq(sql`lower(${contactMessages.email})`, email.toLowerCase())));
      return row?.value ?? 0;
    },

    /**
     * Newest first, or priority first (then newest), after `before` (a page); all, or only those not
     * replied to, or replied.
     */
    async latest(
      limit: number,
      options: { sort: 'newest' | 'priority'; status: 'all' | 'open' | 'replied' },
      before?: { priority: boolean; createdAt: string; id: string },
    ) {
      const byPriority = options.sort === 'priority';
      const after = !before
        ? undefined
        : byPriority
          ? sql`(${contactMessages.priority}, ${contactMessages.createdAt}, ${contactMessages.id}) < (${before.priority}, ${before.createdAt}::timestamptz, ${before.id}::uuid)`
          : sql`(${contactMessages.createdAt}, ${contactMessages.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`;
      return db
        .select({ ...getTableColumns(contactMessages), createdKey: sql<string>`${contactMessages.createdAt}::text` })
        .from(contactMessages)
        .where(and(after, options.status === 'all' ? undefined : eq(contactMessages.handled, options.status === 'replied')))
        .orderBy(...(byPriority ? [desc(contactMessages.priority)] : []), desc(contactMessages.createdAt), desc(contactMessages.id))
        .limit(limit);
    },

    /** What the member sent signed in, oldest first, after `after`: their data, for 'Download my data'. */
    async sentBy(memberId: string, limit: number, after?: { createdAt: string; id: string }) {
      return db
        .select({ ...getTableColumns(contactMessages), createdKey: sql<string>`${contactMessages.createdAt}::text` })
        .from(contactMessages)
        .where(
          and(
            eq(contactMessages.memberId, memberId),
            after
              ? sql`(${contactMessages.createdAt}, ${contactMessages.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(asc(contactMessages.createdAt), asc(contactMessages.id))
        .limit(limit);
    },

    /** Marks a message handled; null when there is no such message. */
    async find(id: string): Promise<{ id: string; name: string; email: string; subject: string } | null> {
      const [row] = await db
        .select({ id: contactMessages.id, name: contactMessages.name, email: contactMessages.email, subject: contactMessages.subject })
        .from(contactMessages)
        .where(eq(contactMessages.id, id));
      return row ?? null;
    },

    async markHandled(id: string): Promise<{ id: string; subject: string } | null> {
      const [updated] = await db
        .update(contactMessages)
        .set({ handled: true, handledAt: new Date() })
        .where(eq(contactMessages.id, id))
        .returning({ id: contactMessages.id, subject: contactMessages.subject });
      return updated ?? null;
    },
  };
}
