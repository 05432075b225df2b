import { and, asc, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { StaffRole } from '../../common/staff-roles.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { staffAccounts, staffRecoveryCodes } from '../../db/schema.ts';

const accountColumns = {
  id: staffAccounts.id,
  email: staffAccounts.email,
  role: staffAccounts.role,
  createdAt: staffAccounts.createdAt,
};

/** Where the next page of staff accounts starts: the last row's creation time (to the microsecond) and id. */
export interface StaffListKey {
  createdAt: string;
  id: string;
}

export function createStaffRepository(db: DatabaseOrTransaction) {
  return {
    async findCredentials(email: string) {
      const [row] = await db
        .select({
          id: staffAccounts.id,
          email: staffAccounts.email,
          passwordHash: staffAccounts.passwordHash,
          totpSecret: staffAccounts.totpSecret,
          totpEnabledAt: staffAccounts.totpEnabledAt,
        })
        .from(staffAccounts)
        .where(eq(sql`lower(${staffAccounts.email})`, email.toLowerCase()))
        .limit(1);
      return row ?? null;
    },

    async findById(id: string) {
      const [row] = await db.select(accountColumns).from(staffAccounts).where(eq(staffAccounts.id, id));
      return row ?? null;
    },

    async findByEmail(email: string) {
      const [row] = await db
        .select(accountColumns)
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

    async countWithRole(role: StaffRole): Promise<number> {
      const [row] = await db.select({ value: count() }).from(staffAccounts).where(eq(staffAccounts.role, role));
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

    /** Two-factor sign-in as it stands: the secret (waiting for its first code, or in use) and the codes left. */
    async twoFactorOf(id: string) {
      const [row] = await db
        .select({
          secret: staffAccounts.totpSecret,
          enabledAt: staffAccounts.totpEnabledAt,
          recoveryCodesLeft: sql<number>`(select count(*)::int from ${staffRecoveryCodes} where ${staffRecoveryCodes.staffId} = ${staffAccounts.id})`,
        })
        .from(staffAccounts)
        .where(eq(staffAccounts.id, id));
      return row ?? null;
    },

    /** A new secret waiting for its first code (two-factor sign-in stays off until then). */
    async setPendingTotpSecret(id: string, secret: string): Promise<void> {
      await db.update(staffAccounts).set({ totpSecret: secret, totpEnabledAt: null, totpLastStep: null }).where(eq(staffAccounts.id, id));
    },

    /** Turns two-factor sign-in on with the step of the code that proved the app works, and new recovery codes. */
    async enableTotp(id: string, step: number, recoveryCodeHashes: string[]): Promise<void> {
      await db.update(staffAccounts).set({ totpEnabledAt: new Date(), totpLastStep: step }).where(eq(staffAccounts.id, id));
      await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, id));
      await db.insert(staffRecoveryCodes).values(recoveryCodeHashes.map((codeHash) => ({ staffId: id, codeHash })));
    },

    async disableTotp(id: string): Promise<void> {
      await db.update(staffAccounts).set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null }).where(eq(staffAccounts.id, id));
      await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, id));
    },

    /** Uses the code of this step: false when it (or a later one) was used already. One statement, so a code works once. */
    async useTotpStep(id: string, step: number): Promise<boolean> {
      const rows = await db
        .update(staffAccounts)
        .set({ totpLastStep: step })
        .where(and(eq(staffAccounts.id, id), or(isNull(staffAccounts.totpLastStep), lt(staffAccounts.totpLastStep, step))))
        .returning({ id: staffAccounts.id });
      return rows.length > 0;
    },

    /** Uses a recovery code: false for one that is not (or no longer) this account's. */
    async useRecoveryCode(id: string, codeHash: string): Promise<boolean> {
      const rows = await db
        .delete(staffRecoveryCodes)
        .where(and(eq(staffRecoveryCodes.staffId, id), eq(staffRecoveryCodes.codeHash, codeHash)))
        .returning({ id: staffRecoveryCodes.staffId });
      return rows.length > 0;
    },

    /**
     * A page of the staff accounts, oldest first (created_at, id; index staff_accounts_created_idx),
     * after the key given. The cursor keeps the database's own microseconds.
     */
    async page(limit: number, after?: StaffListKey) {
      const page = after
        ? sql`(${staffAccounts.createdAt}, ${staffAccounts.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`
        : undefined;
      return db
        .select({ ...accountColumns, cursor: sql<string>`${staffAccounts.createdAt}::text` })
        .from(staffAccounts)
        .where(page)
        .orderBy(asc(staffAccounts.createdAt), asc(staffAccounts.id))
        .limit(limit);
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
