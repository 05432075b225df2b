import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Tier } from '../../common/tiers.ts';
import type { Database } from '../../db/client.ts';
import { members, sessions, staffAccounts } from '../../db/schema.ts';
import { generateSessionToken, hashSessionToken } from './tokens.ts';

export type SessionKind = 'member' | 'staff';

export interface SessionPolicy {
  /** A session unused for this long expires. */
  idleMs: number;
  /** A session expires this long after sign-in, however much it is used. */
  maxMs: number;
}

export interface MemberIdentity {
  id: string;
  name: string;
  email: string;
  membershipTier: Tier;
  createdAt: Date;
}

export interface StaffIdentity {
  id: string;
  email: string;
}

export type ResolvedSession =
  | { sessionId: string; kind: 'member'; member: MemberIdentity; staff?: undefined }
  | { sessionId: string; kind: 'staff'; staff: StaffIdentity; member?: undefined };

export interface SessionRequestInfo {
  userAgent?: string;
  ipAddress?: string;
}

// last_seen_at is written at most this often, so reads stay reads.
const TOUCH_INTERVAL_MS = 60_000;

export class SessionService {
  private readonly db: Database;
  private readonly policy: SessionPolicy;

  constructor(db: Database, policy: SessionPolicy) {
    this.db = db;
    this.policy = policy;
  }

  /** Starts a session and returns its token; only the token's hash is stored. */
  async create(
    owner: { kind: 'member'; memberId: string } | { kind: 'staff'; staffId: string },
    info: SessionRequestInfo = {},
  ): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
    const token = generateSessionToken();
    const expiresAt = new Date(Date.now() + this.policy.maxMs);
    const [row] = await this.db
      .insert(sessions)
      .values({
        tokenHash: hashSessionToken(token),
        kind: owner.kind,
        memberId: owner.kind === 'member' ? owner.memberId : null,
        staffId: owner.kind === 'staff' ? owner.staffId : null,
        expiresAt,
        userAgent: info.userAgent?.slice(0, 400) ?? null,
        ipAddress: info.ipAddress ?? null,
      })
      .returning({ id: sessions.id });
    return { token, sessionId: row.id, expiresAt };
  }

  /** The live session for a token, or null when it is unknown, revoked, idle too long or past its lifetime. */
  async resolve(token: string | undefined): Promise<ResolvedSession | null> {
    if (!token || token.length > 200) return null;
    const [row] = await this.db
      .select({
        session: sessions,
        member: {
          id: members.id,
          name: members.name,
          email: members.email,
          membershipTier: members.membershipTier,
          createdAt: members.createdAt,
        },
        staff: { id: staffAccounts.id, email: staffAccounts.email },
      })
      .from(sessions)
      .leftJoin(members, eq(members.id, sessions.memberId))
      .leftJoin(staffAccounts, eq(staffAccounts.id, sessions.staffId))
      .where(eq(sessions.tokenHash, hashSessionToken(token)))
      .limit(1);
    if (!row) return null;
    const now = Date.now();
    const { session } = row;
    if (session.revokedAt) return null;
    if (session.expiresAt.getTime() <= now) return null;
    if (session.lastSeenAt.getTime() + this.policy.idleMs <= now) return null;
    if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.id, session.id));
    }
    if (session.kind === 'member' && row.member?.id) {
      return {
        sessionId: session.id,
        kind: 'member',
        member: { ...row.member, membershipTier: row.member.membershipTier as Tier },
      };
    }
    if (session.kind === 'staff' && row.staff?.id) {
      return { sessionId: session.id, kind: 'staff', staff: row.staff };
    }
    return null;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  /** Ends every other session of a member, keeping the one in use (or all when none is given). */
  async revokeOtherMemberSessions(memberId: string, keepSessionId?: string): Promise<number> {
    const conditions = [eq(sessions.memberId, memberId), isNull(sessions.revokedAt)];
    if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
    const ended = await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(...conditions))
      .returning({ id: sessions.id });
    return ended.length;
  }

  /** Removes sessions that can no longer be used. */
  async purgeExpired(): Promise<void> {
    const idleCutoff = new Date(Date.now() - this.policy.idleMs);
    await this.db
      .delete(sessions)
      .where(
        sql`${sessions.expiresAt} < now() or ${sessions.lastSeenAt} < ${idleCutoff} or ${sessions.revokedAt} < now() - interval '1 day'`,
      );
  }
}
