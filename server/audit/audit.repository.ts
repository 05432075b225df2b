import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

export interface AuditRecord {
  actorEmail: string;
  action: string;
  target: string;
  oldValue: unknown;
  newValue: unknown;
}

export function createAuditRepository(db: DatabaseOrTransaction) {
  return {
    /** Records one staff change: who, what, on which target, and the value before and after. */
    async record(entry: AuditRecord): Promise<void> {
      await db.insert(auditLog).values({ ...entry, oldValue: entry.oldValue ?? null, newValue: entry.newValue ?? null });
    },

    /** A deleted member's email no longer names them in the log (the entries stay, anonymised). */
    async forgetTarget(target: string): Promise<void> {
      await db.update(auditLog).set({ target: 'deleted member' }).where(eq(auditLog.target, target));
    },

    /** The entries about one target (a member's email), newest first (ids grow with time). */
    async forTarget(target: string, limit: number) {
      return db.select().from(auditLog).where(eq(auditLog.target, target)).orderBy(desc(auditLog.id)).limit(limit);
    },

    /**
     * The log, newest first, before the entry `beforeId` (a page, read on the primary key); only the
     * entries whose action starts with one of `kinds` (`course`: course.create, course.update...), when given.
     */
    async latest(limit: number, beforeId?: number, kinds?: readonly string[]) {
      return db
        .select()
        .from(auditLog)
        .where(
          and(
            beforeId === undefined ? undefined : lt(auditLog.id, beforeId),
            kinds ? inArray(sql`split_part(${auditLog.action}, '.', 1)`, [...kinds]) : undefined,
          ),
        )
        .orderBy(desc(auditLog.id))
        .limit(limit);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
