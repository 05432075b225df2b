import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AdminLoginInput } from '../../common/admin.ts';
import { INVALID_CREDENTIALS } from '../../common/auth.ts';
import { STAFF_LOGIN_LIMITS } from '../../common/limits.ts';
import { staffAccounts } from '../../db/schema.ts';
import { AttemptLimiter } from '../http/attempt-limiter.ts';
import { parseInput, unauthorized } from '../http/errors.ts';
import { clearSessionCookie, setSessionCookie } from '../sessions/session-cookies.ts';
import { STAFF_COOKIE } from '../sessions/session.plugin.ts';
import { verifyAgainstDecoy, verifyPassword } from '../sessions/passwords.ts';

export async function adminAuthRoutes(app: FastifyInstance) {
  const limiter = new AttemptLimiter(`${app.config.redisKeyPrefix}:limit:staff-login`, app.redis);

  // Stricter than members: a few free tries, then each further try doubles the wait.
  app.post('/api/admin/login', async (request, reply) => {
    const input = parseInput(AdminLoginInput, request.body);
    const scopes = [
      ['address', request.ip, { ...STAFF_LOGIN_LIMITS.perAddress, growing: true }],
      ['account', input.email, { ...STAFF_LOGIN_LIMITS.perAccount, growing: true }],
    ] as const;
    for (const [scope, key, limit] of scopes) await limiter.ensureNotBlocked(scope, key, limit);
    const [staff] = await app.database
      .select()
      .from(staffAccounts)
      .where(eq(sql`lower(${staffAccounts.email})`, input.email.toLowerCase()))
      .limit(1);
    const valid = staff ? await verifyPassword(staff.passwordHash, input.password) : await verifyAgainstDecoy(input.password);
    if (!staff || !valid) {
      for (const [scope, key, limit] of scopes) await limiter.recordFailure(scope, key, limit);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    const session = await app.sessions.create(
      { kind: 'staff', staffId: staff.id },
      { userAgent: request.headers['user-agent'], ipAddress: request.ip },
    );
    setSessionCookie(request, reply, 'staff', session.token, session.expiresAt);
    return { token: session.token, email: staff.email };
  });

  app.post('/api/admin/logout', async (request, reply) => {
    const session = await app.sessions.resolve(request.sessionToken('staff'));
    if (session?.kind === 'staff') await app.sessions.revoke(session.sessionId);
    if (request.cookies[STAFF_COOKIE]) clearSessionCookie(reply, 'staff');
    return { success: true };
  });
}
