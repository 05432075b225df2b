import { desc } from 'drizzle-orm';
import type { AuditEntry } from '../../common/admin.ts';
import type { Database, DatabaseOrTransaction } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

/** Records one admin change: who, what, on which target, and the value before and after. */
export async function recordAudit(
  db: DatabaseOrTransaction,
  entry: { actorEmail: string; action: string; target: string; oldValue: unknown; newValue: unknown },
): Promise<void> {
  await db.insert(auditLog).values({
    actorEmail: entry.actorEmail,
    action: entry.action,
    target: entry.target,
    oldValue: entry.oldValue ?? null,
    newValue: entry.newValue ?? null,
  });
}

export async function listAudit(db: Database, limit = 200): Promise<AuditEntry[]> {
  const rows = await db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit);
  return rows.map((row) => ({
    id: row.id,
    actor_email: row.actorEmail,
    action: row.action,
    target: row.target,
    old_value: row.oldValue,
    new_value: row.newValue,
    created_at: row.createdAt.toISOString(),
  }));
}
