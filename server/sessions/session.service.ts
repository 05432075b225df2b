import { KEPT_SESSIONS, MAX_LIVE_SESSIONS, SESSION_TOKEN_MAX_LENGTH, SESSION_TOUCH_EVERY_MS } from '../../common/limits.ts';
import type { MemberIdentity, StaffIdentity } from '../../common/viewer.ts';
import type { SessionOwner, SessionsRepository } from './sessions.repository.ts';
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

type SessionRow = Awaited<ReturnType<SessionsRepository['findByTokenHashes']>>[number];

/**
 * The data version a kept session holds for, by whose it is (a member's id; undefined: any change
 * at all, to tell whether something changed while sessions were read); null while it is unknown.
 */
type Freshness = (owner?: string) => string | null;

/** Whose data a session's answer shows: its member's, or (staff) no member's. */
const ownerKey = (row: SessionRow) => row.member?.id ?? `staff:${row.staff?.id ?? row.session.id}`;

/** A kept session's rough size in memory: its JSON, twice (UTF-16), and the map's own share. */
const estimatedBytes = (row: SessionRow) => 128 + 2 * JSON.stringify(row).length;

/**
 * Sessions for members and staff: random tokens, stored only as their hash, revocable. A session
 * looked up once is kept in memory while nothing that could change the answer has changed (the
 * versions of sessions and of members' accounts: a revocation, a tier, a name), so most requests
 * cost no query for it.
 */
export class SessionService {
  private readonly repository: SessionsRepository;
  private readonly policy: SessionPolicy;
  private readonly freshness: Freshness | undefined;
  private readonly kept = new Map<string, { version: string; row: SessionRow; bytes: number }>();
  private keptBytes = 0;

  private forget(hash: string): void {
    const entry = this.kept.get(hash);
    if (!entry) return;
    this.kept.delete(hash);
    this.keptBytes -= entry.bytes;
  }

  /** `freshness` names the data version a kept session holds for, or null while it is unknown. */
  constructor(repository: SessionsRepository, policy: SessionPolicy, freshness?: Freshness) {
    this.repository = repository;
    this.policy = policy;
    this.freshness = freshness;
  }

  /** The stored sessions for these hashes: kept ones, and the rest in one query. */
  private async rowsFor(hashes: string[]): Promise<SessionRow[]> {
    const { freshness } = this;
    const found: SessionRow[] = [];
    const missing: string[] = [];
    for (const hash of hashes) {
      const entry = this.kept.get(hash);
      if (entry && freshness && entry.version === freshness(ownerKey(entry.row))) found.push(entry.row);
      else missing.push(hash);
    }
    if (missing.length === 0) return found;
    // Whether anything changed while the rows were read: then they are used, not kept.
    const before = freshness?.();
    const fetched = await this.repository.findByTokenHashes(missing);
    if (freshness && before != null && before === freshness()) {
      for (const row of fetched) {
        const version = freshness(ownerKey(row));
        if (version === null) continue;
        this.forget(row.session.tokenHash);
        const bytes = estimatedBytes(row);
        this.kept.set(row.session.tokenHash, { version, row, bytes });
        this.keptBytes += bytes;
      }
      for (const hash of this.kept.keys()) {
        if (this.kept.size <= KEPT_SESSIONS.maxEntries && this.keptBytes <= KEPT_SESSIONS.maxBytes) break;
        this.forget(hash);
      }
    }
    return [...found, ...fetched];
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
    if (owner.kind === 'member') {
      await this.repository.revokeOldest(owner.memberId, MAX_LIVE_SESSIONS);
      this.kept.clear();
    }
    return { token, sessionId, expiresAt };
  }

  /** The live session for a token, or null when it is unknown, revoked, idle too long or past its lifetime. */
  async resolve(token: string | undefined): Promise<ResolvedSession | null> {
    const [resolved] = await this.resolveMany([token]);
    return resolved ?? null;
  }

  /** Several tokens (a member and a staff cookie) in one query; the answer keeps the order asked. */
  async resolveMany(tokens: (string | undefined)[]): Promise<(ResolvedSession | null)[]> {
    const hashes = tokens.map((token) => (token && token.length <= SESSION_TOKEN_MAX_LENGTH ? hashSessionToken(token) : null));
    const rows = await this.rowsFor(hashes.filter((hash): hash is string => hash !== null));
    const now = Date.now();
    return Promise.all(
      hashes.map(async (hash) => {
        const row = hash ? rows.find((candidate) => candidate.session.tokenHash === hash) : undefined;
        if (!row) return null;
        const { session } = row;
        if (session.revokedAt || session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + this.policy.idleMs <= now) {
          return null;
        }
        if (now - session.lastSeenAt.getTime() > SESSION_TOUCH_EVERY_MS) {
          await this.repository.touch(session.id, new Date(now));
          session.lastSeenAt = new Date(now);
        }
        if (session.kind === 'member' && row.member) return { sessionId: session.id, kind: 'member' as const, member: row.member };
        if (session.kind === 'staff' && row.staff) return { sessionId: session.id, kind: 'staff' as const, staff: row.staff };
        return null;
      }),
    );
  }

  // A revocation forgets what this process kept at once; other processes learn of it from the
  // session version within a second.
  async revoke(sessionId: string): Promise<void> {
    await this.repository.revoke(sessionId);
    this.kept.clear();
  }

  /** Ends every other session of a member, keeping the one in use (or all when none is given). */
  async revokeOtherMemberSessions(memberId: string, keepSessionId?: string): Promise<number> {
    const ended = await this.repository.revokeMemberSessions(memberId, keepSessionId);
    this.kept.clear();
    return ended;
  }

  /** The member's devices: each session that still works, with where and when it was used. */
  devicesOf(memberId: string) {
    return this.repository.liveOf(memberId, MAX_LIVE_SESSIONS);
  }

  /** Signs out one of the member's own devices; false when it is not theirs or already ended. */
  async revokeMemberSession(memberId: string, sessionId: string): Promise<boolean> {
    const ended = await this.repository.revokeOfMember(memberId, sessionId);
    this.kept.clear();
    return ended;
  }

  async revokeStaffSessions(staffId: string): Promise<void> {
    await this.repository.revokeStaffSessions(staffId);
    this.kept.clear();
  }

  /** Removes sessions that can no longer be used; returns how many. */
  purgeExpired(): Promise<number> {
    return this.repository.deleteUnusable(new Date(Date.now() - this.policy.idleMs));
  }
}
