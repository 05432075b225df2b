import { asc, count, eq, sql } from 'drizzle-orm';
import type { StaffRole } from '../../common/staff-roles.ts';
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

    async findById(id: string) {
      const [row] = await db
        .select({ id: staffAccounts.id, email: staffAccounts.email })
        .from(staffAccounts)
        .where(eq(staffAccounts.id, id));
      return row ?? null;
    },

    async findByEmail(email: string) {
      const [row] = await db
        .select({ id: staffAccounts.id, email: staffAccounts.email })
        .from(staffAccounts)
        .where(eq(sql`lower(${staffAccounts.email})`, email.toLowerCase()))
        .limit(1);
      return row ?? null;
    },

    async setPassword(id: string, passwordHash: string): Promise<void> {
      await db.update(staffAccounts).set({ passwordHash }).where(eq(staffAccounts.id, id));
    },

    async listEmails(): Promise<string[]> {
      return (await db.select({ email: staffAccounts.email }).from(staffAccounts)).map((row) => row.email);
    },

    async count(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(staffAccounts);
      return row?.value ?? 0;
    },

    async create(values: { email: string; passwordHash: string }): Promise<void> {
      await db.insert(staffAccounts).values(values).onConflictDoNothing();
    },

    /** A new account with its role; a taken email fails with a unique violation. */
    async createWithRole(values: { email: string; passwordHash: string; role: StaffRole }): Promise<string> {
      const [row] = await db.insert(staffAccounts).values(values).returning({ id: staffAccounts.id });
      return row!.id;
    },

    async list() {
      return db
        .select({ id: staffAccounts.id, email: staffAccounts.email, role: staffAccounts.role, createdAt: staffAccounts.createdAt })
        .from(staffAccounts)
        .orderBy(asc(staffAccounts.createdAt));
    },

    /** Holds every staff row until the transaction ends: two owners cannot both step down at once. */
    async lockAll(): Promise<void> {
      await db.select({ id: staffAccounts.id }).from(staffAccounts).for('update');
    },

    async setRole(id: string, role: StaffRole): Promise<void> {
      await db.update(staffAccounts).set({ role }).where(eq(staffAccounts.id, id));
    },

    async remove(id: string): Promise<void> {
      await db.delete(staffAccounts).where(eq(staffAccounts.id, id));
    },
  };
}
