import { MAX_LIVE_SESSIONS } from '../../common/limits.ts';
import type { MemberIdentity, StaffIdentity } from '../../common/viewer.ts';
import type { Database } from '../../db/client.ts';
import { createSessionsRepository, type SessionOwner, type SessionsRepository } from './sessions.repository.ts';
import { generateSessionToken, hashSessionToken } from './tokens.ts';

export interface SessionPolicy {
  /** A session unused for this long expires. */
  idleMs: number;
  /** A session expires this long after sign-in, however much it is used. */
  maxMs: number;
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
// Longer values are not tokens we issued; they are not even hashed.
const MAX_TOKEN_LENGTH = 200;

/** Sessions for members and staff: random tokens, stored only as their hash, revocable. */
export class SessionService {
  private readonly repository: SessionsRepository;
  private readonly policy: SessionPolicy;

  constructor(db: Database, policy: SessionPolicy) {
    this.repository = createSessionsRepository(db);
    this.policy = policy;
  }

  /** Starts a session and returns its token; only the token's hash is stored. A member keeps at most MAX_LIVE_SESSIONS. */
  async create(owner: SessionOwner, info: SessionRequestInfo = {}): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
    const token = generateSessionToken();
    const expiresAt = new Date(Date.now() + this.policy.maxMs);
    const sessionId = await this.repository.create({
      tokenHash: hashSessionToken(token),
      owner,
      expiresAt,
      userAgent: info.userAgent?.slice(0, 400) ?? null,
      ipAddress: info.ipAddress ?? null,
    });
    if (owner.kind === 'member') await this.repository.revokeOldest(owner.memberId, MAX_LIVE_SESSIONS);
    return { token, sessionId, expiresAt };
  }

  /** The live session for a token, or null when it is unknown, revoked, idle too long or past its lifetime. */
  async resolve(token: string | undefined): Promise<ResolvedSession | null> {
    const [resolved] = await this.resolveMany([token]);
    return resolved ?? null;
  }

  /** Several tokens (a member and a staff cookie) in one query; the answer keeps the order asked. */
  async resolveMany(tokens: (string | undefined)[]): Promise<(ResolvedSession | null)[]> {
    const hashes = tokens.map((token) => (token && token.length <= MAX_TOKEN_LENGTH ? hashSessionToken(token) : null));
    const rows = await this.repository.findByTokenHashes(hashes.filter((hash): hash is string => hash !== null));
    const now = Date.now();
    return Promise.all(
      hashes.map(async (hash) => {
        const row = hash ? rows.find((candidate) => candidate.session.tokenHash === hash) : undefined;
        if (!row) return null;
        const { session } = row;
        if (session.revokedAt || session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + this.policy.idleMs <= now) {
          return null;
        }
        if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) await this.repository.touch(session.id, new Date(now));
        if (session.kind === 'member' && row.member) return { sessionId: session.id, kind: 'member' as const, member: row.member };
        if (session.kind === 'staff' && row.staff) return { sessionId: session.id, kind: 'staff' as const, staff: row.staff };
        return null;
      }),
    );
  }

  revoke(sessionId: string): Promise<void> {
    return this.repository.revoke(sessionId);
  }

  /** Ends every other session of a member, keeping the one in use (or all when none is given). */
  revokeOtherMemberSessions(memberId: string, keepSessionId?: string): Promise<number> {
    return this.repository.revokeMemberSessions(memberId, keepSessionId);
  }

  revokeStaffSessions(staffId: string): Promise<void> {
    return this.repository.revokeStaffSessions(staffId);
  }

  /** Removes sessions that can no longer be used; returns how many. */
  purgeExpired(): Promise<number> {
    return this.repository.deleteUnusable(new Date(Date.now() - this.policy.idleMs));
  }
}
