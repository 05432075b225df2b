import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

export interface AuditRecord {
  actorEmail: string;
  action: string;
  target: string;
  oldValue: unknown;
  newValue: unknown;
  /** The member the change is about (their post, their reply), so the entry can forget them. */
  subjectMemberId?: string | null;
}

export function createAuditRepository(db: DatabaseOrTransaction) {
  return {
    /** Records one staff change: who, what, on which target, and the value before and after. */
    async record(entry: AuditRecord): Promise<void> {
      await db.insert(auditLog).values({ ...entry, oldValue: entry.oldValue ?? null, newValue: entry.newValue ?? null });
    },

    /**
     * A deleted member's entries keep what happened, not who the person was: their email and name
     * give way to 'deleted member' wherever they appear, and entries about what they wrote lose the
     * text and names they held (a reply's excerpt, a discussion's title).
     */
    async forgetMember(member: { id: string; email: string; name: string }): Promise<void> {
      const about = sql`(${auditLog.subjectMemberId} = ${member.id}
        or (${auditLog.action} like 'community.post.%' and ${auditLog.newValue} = to_jsonb(${member.name}::text))
        or (${auditLog.action} like 'community.reply.%' and ${auditLog.target} = ${member.name}))`;
      const community = sql`${auditLog.action} like 'community.%'`;
      await db
        .update(auditLog)
        .set({
          target: sql`case when ${about} or ${auditLog.target} = ${member.email} then 'deleted member' else ${auditLog.target} end`,
          actorEmail: sql`case when ${auditLog.actorEmail} = ${member.email} then 'deleted member' else ${auditLog.actorEmail} end`,
          oldValue: sql`case when ${about} and ${community} then null else ${auditLog.oldValue} end`,
          newValue: sql`case when ${about} and ${community} then null else ${auditLog.newValue} end`,
          subjectMemberId: null,
        })
        .where(or(about, eq(auditLog.target, member.email), eq(auditLog.actorEmail, member.email)));
    },

    /** The entries about one target (a member's email), newest first (ids grow with time). */
    /** The entries about one member (their email), newest first, before the entry `beforeId` (a page, on audit_log_target_idx). */
    async forTarget(target: string, limit: number, beforeId?: number) {
      return db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.target, target), beforeId === undefined ? undefined : lt(auditLog.id, beforeId)))
        .orderBy(desc(auditLog.id))
        .limit(limit);
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
