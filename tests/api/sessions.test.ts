import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { members, sessions } from '../../db/schema.ts';
import { hashPassword, verifyPassword } from '../../server/sessions/passwords.ts';
import { SessionService } from '../../server/sessions/session.service.ts';
import { hashSessionToken } from '../../server/sessions/tokens.ts';
import { createSessionsRepository } from '../../server/sessions/sessions.repository.ts';

let database: DatabaseHandle;
let memberId: string;
const HOUR = 60 * 60 * 1000;
beforeAll(async () => {
  database = await openDatabase({ kind: 'memory' });
  await database.migrate();
  const [member] = await database.db
    .insert(members)
    .values({ name: 'Avery Agent', email: 'avery@example.com', passwordHash: await hashPassword('secret-pass'), membershipTier: 'bronze' })
    .returning();
  memberId = member!.id;
});
afterAll(() => database.close());

describe('sessions', () => {
  it('stores only the hash of a random token and resolves the member from the token', async () => {
    const service = new SessionService(createSessionsRepository(database.db), { idleMs: HOUR, maxMs: 24 * HOUR });
    const { token, sessionId } = await service.create({ kind: 'member', memberId });
    expect(token.length).toBeGreaterThanOrEqual(43);
    const [row] = await database.db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(row!.tokenHash).toBe(hashSessionToken(token));
    expect(row!.tokenHash).not.toContain(token);
    const resolved = await service.resolve(token);
    expect(resolved).toMatchObject({ kind: 'member', member: { name: 'Avery Agent', membershipTier: 'bronze' } });
  });

  it('expires a session after its idle period and after its absolute lifetime', async () => {
    const service = new SessionService(createSessionsRepository(database.db), { idleMs: HOUR, maxMs: 24 * HOUR });
    const idle = await service.create({ kind: 'member', memberId });
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 2 * HOUR) })
      .where(eq(sessions.id, idle.sessionId));
    expect(await service.resolve(idle.token)).toBeNull();

    const old = await service.create({ kind: 'member', memberId });
    await database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, old.sessionId));
    expect(await service.resolve(old.token)).toBeNull();
  });

  it('revokes every other session of a member', async () => {
    const service = new SessionService(createSessionsRepository(database.db), { idleMs: HOUR, maxMs: 24 * HOUR });
    const kept = await service.create({ kind: 'member', memberId });
    const other = await service.create({ kind: 'member', memberId });
    expect(await service.revokeOtherMemberSessions(memberId, kept.sessionId)).toBeGreaterThanOrEqual(1);
    expect(await service.resolve(other.token)).toBeNull();
    expect(await service.resolve(kept.token)).not.toBeNull();
  });
});

describe('passwords', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  });
});
