import { count, eq, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { staffAccounts } from '../../db/schema.ts';

export function createStaffRepository(db: DatabaseOrTransaction) {
  return {
    async findCredentials(email: string): Promise<{ id: string; email: string; passwordHash: string } | null> {
      const [row] = await db
        .select({ id: staffAccounts.id, email: staffAccounts.email, passwordHash: staffAccounts.passwordHash })
        .from(staffAccounts)
        .where(eq(sql`lower(${staffAccounts.email})`, email.toLowerCase()))
        .limit(1);
      return row ?? null;
    },

    async count(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(staffAccounts);
      return row?.value ?? 0;
    },

    async create(values: { email: string; passwordHash: string }): Promise<void> {
      await db.insert(staffAccounts).values(values).onConflictDoNothing();
    },
  };
}

export type StaffRepository = ReturnType<typeof createStaffRepository>;
