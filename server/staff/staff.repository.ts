import { and, asc, count, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { StaffRole } from '../../common/staff-roles.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { staffAccounts, staffRecoveryCodes } from '../../db/schema.ts';

const accountColumns = {
  id: staffAccounts.id,
  email: staffAccounts.email,
  role: staffAccounts.role,
  createdAt: staffAccounts.createdAt,
  secondFactorLockedUntil: staffAccounts.secondFactorLockedUntil,
};

/** What checking a staff member's secrets needs: the password's hash, the app's secret, and where to write. */
const credentialColumns = {
  id: staffAccounts.id,
  email: staffAccounts.email,
  displayName: staffAccounts.displayName,
  passwordHash: staffAccounts.passwordHash,
  totpSecret: staffAccounts.totpSecret,
  totpEnabledAt: staffAccounts.totpEnabledAt,
};

/** Where the next page of staff accounts starts: the last row's creation time (to the microsecond) and id. */
export interface StaffListKey {
  createdAt: string;
  id: string;
}

export function createStaffRepository(db: DatabaseOrTransaction) {
  async function replaceRecoveryCodes(id: string, recoveryCodeHashes: string[]): Promise<void> {
    await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, id));
    await db.insert(staffRecoveryCodes).values(recoveryCodeHashes.map((codeHash) => ({ staffId: id, codeHash })));
  }

  return {
    async findCredentials(email: string) {
      const [row] = await db
        .select(credentialColumns)
        .from(staffAccounts)
        .where(eq(sql`lower(${staffAccounts.email})`, email.toLowerCase()))
        .limit(1);
      return row ?? null;
    },

    /** The signed-in staff member's own secrets, to check their password or code again before a sensitive change. */
    async findCredentialsById(id: string) {
      const [row] = await db.select(credentialColumns).from(staffAccounts).where(eq(staffAccounts.id, id));
      return row ?? null;
    },

    async setEmail(id: string, email: string): Promise<void> {
      await db.update(staffAccounts).set({ email }).where(eq(staffAccounts.id, id));
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

    /** Whether any staff account exists (one row read, not a count: every start asks). */
    async any(): Promise<boolean> {
      return (await db.select({ id: staffAccounts.id }).from(staffAccounts).limit(1)).length > 0;
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
          lockedUntil: staffAccounts.secondFactorLockedUntil,
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
      await replaceRecoveryCodes(id, recoveryCodeHashes);
    },

    /** New recovery codes in place of every one left. */
    replaceRecoveryCodes,

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
     * Counts a two-factor code about to be checked as a failure (the right one takes it back), in one
     * statement, so codes sent at once from many places are each counted before any is checked. The
     * count starts again after a quiet `windowMs`, or once a lock has passed. Null while locked.
     */
    async countSecondFactorTry(id: string, now: Date, windowMs: number): Promise<number | null> {
      const recent = and(
        gt(staffAccounts.secondFactorFailedAt, new Date(now.getTime() - windowMs)),
        or(isNull(staffAccounts.secondFactorLockedUntil), gt(staffAccounts.secondFactorFailedAt, staffAccounts.secondFactorLockedUntil)),
      );
      const rows = await db
        .update(staffAccounts)
        .set({
          secondFactorFailures: sql`case when ${recent} then ${staffAccounts.secondFactorFailures} + 1 else 1 end`,
          secondFactorFailedAt: now,
        })
        .where(
          and(eq(staffAccounts.id, id), or(isNull(staffAccounts.secondFactorLockedUntil), lte(staffAccounts.secondFactorLockedUntil, now))),
        )
        .returning({ failures: staffAccounts.secondFactorFailures });
      return rows[0]?.failures ?? null;
    },

    /**
     * A right code takes back its own try, counted as a failure before it was checked: only that one,
     * so the owner's sign-in never forgives the wrong codes someone else sent meanwhile.
     */
    async takeBackSecondFactorTry(id: string): Promise<void> {
      await db
        .update(staffAccounts)
        .set({ secondFactorFailures: sql`greatest(${staffAccounts.secondFactorFailures} - 1, 0)` })
        .where(eq(staffAccounts.id, id));
    },

    /** Locks the account's codes until then; false when they were locked already (so it is told once). */
    async lockSecondFactor(id: string, now: Date, until: Date): Promise<boolean> {
      const rows = await db
        .update(staffAccounts)
        .set({ secondFactorLockedUntil: until })
        .where(
          and(eq(staffAccounts.id, id), or(isNull(staffAccounts.secondFactorLockedUntil), lte(staffAccounts.secondFactorLockedUntil, now))),
        )
        .returning({ id: staffAccounts.id });
      return rows.length > 0;
    },

    /** Until when the account's codes are refused (null or past when they are not). */
    async secondFactorLockedUntil(id: string): Promise<Date | null> {
      const [row] = await db.select({ until: staffAccounts.secondFactorLockedUntil }).from(staffAccounts).where(eq(staffAccounts.id, id));
      return row?.until ?? null;
    },

    /** An owner lifts a lock in force, and the count starts again; false when there was none. */
    async liftSecondFactorLock(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(staffAccounts)
        .set({ secondFactorLockedUntil: null, secondFactorFailures: 0, secondFactorFailedAt: null })
        .where(and(eq(staffAccounts.id, id), gt(staffAccounts.secondFactorLockedUntil, now)))
        .returning({ id: staffAccounts.id });
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
