import { and, desc, eq, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { members, sessions, siteSettings, staffAccounts } from '../../db/schema.ts';
import { STAFF_TWO_FACTOR_SETTING } from '../staff/site-settings.repository.ts';

/** Unusable sessions removed per statement: a backlog goes in short steps. */
const SESSION_PURGE_BATCH = 5000;

export type SessionOwner = { kind: 'member'; memberId: string } | { kind: 'staff'; staffId: string };

export function createSessionsRepository(db: DatabaseOrTransaction) {
  return {
    async create(values: {
      tokenHash: string;
      owner: SessionOwner;
      expiresAt: Date;
      userAgent: string | null;
      ipAddress: string | null;
    }): Promise<string> {
      const [row] = await db
        .insert(sessions)
        .values({
          tokenHash: values.tokenHash,
          kind: values.owner.kind,
          memberId: values.owner.kind === 'member' ? values.owner.memberId : null,
          staffId: values.owner.kind === 'staff' ? values.owner.staffId : null,
          expiresAt: values.expiresAt,
          userAgent: values.userAgent,
          ipAddress: values.ipAddress,
        })
        .returning({ id: sessions.id });
      return row!.id;
    },

    /** The sessions stored under these token hashes, with their member or staff account, in one query. */
    async findByTokenHashes(tokenHashes: string[]) {
      if (tokenHashes.length === 0) return [];
      return db
        .select({
          session: {
            id: sessions.id,
            tokenHash: sessions.tokenHash,
            kind: sessions.kind,
            lastSeenAt: sessions.lastSeenAt,
            expiresAt: sessions.expiresAt,
            revokedAt: sessions.revokedAt,
          },
          member: {
            id: members.id,
            name: members.name,
            email: members.email,
            membershipTier: members.membershipTier,
            createdAt: members.createdAt,
            emailVerifiedAt: members.emailVerifiedAt,
            communitySuspendedAt: members.communitySuspendedAt,
            timeZone: members.timeZone,
          },
          staff: {
            id: staffAccounts.id,
            email: staffAccounts.email,
            role: staffAccounts.role,
            twoFactorEnabled: sql<boolean>`${staffAccounts.totpEnabledAt} is not null`,
            // Read with the session, so owners requiring two-factor sign-in applies at the next request.
            twoFactorRequired: sql<boolean>`coalesce((select ${siteSettings.value} = 'true'::jsonb from ${siteSettings} where ${siteSettings.key} = ${STAFF_TWO_FACTOR_SETTING}), false)`,
          },
        })
        .from(sessions)
        .leftJoin(members, eq(members.id, sessions.memberId))
        .leftJoin(staffAccounts, eq(staffAccounts.id, sessions.staffId))
        .where(inArray(sessions.tokenHash, tokenHashes));
    },

    async touch(sessionId: string, at: Date): Promise<void> {
      await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, sessionId));
    },

    async revoke(sessionId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    /** Ends every live session of a member but the one kept; returns how many ended. */
    async revokeMemberSessions(memberId: string, keepSessionId?: string): Promise<number> {
      const conditions = [eq(sessions.memberId, memberId), isNull(sessions.revokedAt)];
      if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
      const ended = await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(...conditions))
        .returning({ id: sessions.id });
      return ended.length;
    },

    async revokeStaffSessions(staffId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.staffId, staffId), isNull(sessions.revokedAt)));
    },

    /** The member's sessions that still work, the most recently used first (at most `limit`: a member keeps ten). */
    async liveOf(memberId: string, limit: number) {
      return db
        .select({
          id: sessions.id,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          userAgent: sessions.userAgent,
          ipAddress: sessions.ipAddress,
        })
        .from(sessions)
        .where(and(eq(sessions.memberId, memberId), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > now()`))
        .orderBy(desc(sessions.lastSeenAt))
        .limit(limit);
    },

    /** Ends one session of this member's (none of anyone else's); false when there was none. */
    async revokeOfMember(memberId: string, sessionId: string): Promise<boolean> {
      const ended = await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.id, sessionId), eq(sessions.memberId, memberId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return ended.length > 0;
    },

    /** Ends the member's live sessions beyond the newest `keep`; returns how many ended. */
    async revokeOldest(memberId: string, keep: number): Promise<number> {
      const newest = db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.memberId, memberId), isNull(sessions.revokedAt)))
        .orderBy(desc(sessions.createdAt), desc(sessions.id))
        .limit(keep);
      const ended = await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.memberId, memberId), isNull(sessions.revokedAt), notInArray(sessions.id, newest)))
        .returning({ id: sessions.id });
      return ended.length;
    },

    /** Removes sessions that can no longer be used; returns how many. */
    /**
     * Removes sessions that can no longer be used, a batch at a time. Looked for first: a delete that
     * finds nothing still counts as a change to sessions, and would make every process read every
     * session again.
     */
    async deleteUnusable(idleCutoff: Date): Promise<number> {
      let removed = 0;
      for (;;) {
        const unusable = await db
          .select({ id: sessions.id })
          .from(sessions)
          .where(
            sql`${sessions.expiresAt} < now() or ${sessions.lastSeenAt} < ${idleCutoff} or ${sessions.revokedAt} < now() - interval '1 day'`,
          )
          .limit(SESSION_PURGE_BATCH);
        if (unusable.length === 0) return removed;
        const gone = await db
          .delete(sessions)
          .where(
            inArray(
              sessions.id,
              unusable.map((row) => row.id),
            ),
          )
          .returning({ id: sessions.id });
        removed += gone.length;
        if (unusable.length < SESSION_PURGE_BATCH) return removed;
      }
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
