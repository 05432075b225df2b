import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LoginInput, RegisterInput } from '../../common/auth.ts';
import { MEMBER_AUTH_LIMITS } from '../../common/limits.ts';
import { AttemptLimiter } from '../http/attempt-limiter.ts';
import { parseInput } from '../http/errors.ts';
import { clearSessionCookie, setSessionCookie } from '../sessions/session-cookies.ts';
import { MEMBER_COOKIE, requireMember } from '../sessions/session.plugin.ts';
import { createAuthService } from './auth.service.ts';

const requestInfo = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'], ipAddress: request.ip });

export async function authRoutes(app: FastifyInstance) {
  const auth = createAuthService(app.database);
  const limiter = new AttemptLimiter(`${app.config.redisKeyPrefix}:limit:member-auth`, app.redis);

  // Brute-force protection per client address (request.ip honours TRUST_PROXY only when set) and per account.
  const scopes = (request: FastifyRequest, email: string) =>
    [
      ['address', request.ip, MEMBER_AUTH_LIMITS.perAddress],
      ['account', email, MEMBER_AUTH_LIMITS.perAccount],
    ] as const;

  app.post('/api/auth/register', async (request, reply) => {
    const input = parseInput(RegisterInput, request.body);
    // Every sign-up counts: creating accounts in bulk is the abuse here.
    for (const [scope, key, limit] of scopes(request, input.email)) await limiter.check(`register:${scope}`, key, limit);
    const member = await auth.register(input);
    const session = await app.sessions.create({ kind: 'member', memberId: member.id }, requestInfo(request));
    setSessionCookie(request, reply, 'member', session.token, session.expiresAt);
    return reply.status(201).send({ token: session.token });
  });

  app.post('/api/auth/login', async (request, reply) => {
    const input = parseInput(LoginInput, request.body);
    // Only failed sign-ins count, so a member who signs in often is never locked out.
    for (const [scope, key, limit] of scopes(request, input.email)) await limiter.ensureNotBlocked(`login:${scope}`, key, limit);
    const member = await auth.authenticate(input).catch(async (error: unknown) => {
      for (const [scope, key, limit] of scopes(request, input.email)) await limiter.recordFailure(`login:${scope}`, key, limit);
      throw error;
    });
    // A fresh token at every sign-in.
    const session = await app.sessions.create({ kind: 'member', memberId: member.id }, requestInfo(request));
    setSessionCookie(request, reply, 'member', session.token, session.expiresAt);
    return { token: session.token };
  });

  app.get('/api/auth/me', async (request) => {
    const member = await requireMember(request);
    return {
      id: member.id,
      name: member.name,
      email: member.email,
      membership_tier: member.membershipTier,
      created_at: member.createdAt.toISOString(),
    };
  });

  app.post('/api/auth/logout', async (request, reply) => {
    const token = request.sessionToken('member');
    const session = await app.sessions.resolve(token);
    if (session?.kind === 'member') await app.sessions.revoke(session.sessionId);
    if (request.cookies[MEMBER_COOKIE]) clearSessionCookie(reply, 'member');
    return { success: true };
  });

  // Ends every other session of the member (a lost phone, a shared computer).
  app.post('/api/auth/sessions/revoke-others', async (request) => {
    const member = await requireMember(request);
    const ended = await app.sessions.revokeOtherMemberSessions(member.id, member.sessionId);
    return { success: true, ended };
  });
}
