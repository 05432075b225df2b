import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { ContactInput } from '../../common/contact.contract.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';

export function createContactRepository(db: DatabaseOrTransaction) {
  return {
    async create(message: ContactInput & { ipAddress: string }): Promise<void> {
      await db.insert(contactMessages).values(message);
    },

    /** Newest first, after `before` (a page). */
    async latest(limit: number, before?: { createdAt: string; id: string }) {
      return db
        .select({ ...getTableColumns(contactMessages), createdKey: sql<string>`${contactMessages.createdAt}::text` })
        .from(contactMessages)
        .where(
          and(
            before
              ? sql`(${contactMessages.createdAt}, ${contactMessages.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
        .limit(limit);
    },

    /** Marks a message handled; null when there is no such message. */
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
