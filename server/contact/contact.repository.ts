import { desc, eq } from 'drizzle-orm';
import type { ContactInput } from '../../common/contact.contract.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';

export function createContactRepository(db: DatabaseOrTransaction) {
  return {
    async create(message: ContactInput & { ipAddress: string }): Promise<void> {
      await db.insert(contactMessages).values(message);
    },

    /** Newest first. */
    async latest(limit: number) {
      return db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(limit);
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
