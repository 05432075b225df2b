import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { MemberIdentity, ResolvedSession, SessionService, StaffIdentity } from './session.service.ts';

export const MEMBER_COOKIE = 'rp_session';
export const STAFF_COOKIE = 'rp_staff';

declare module 'fastify' {
  interface FastifyRequest {
    /** The member or staff session this request carries, resolved once and cached. */
    session(): Promise<ResolvedSession | null>;
    /** The Bearer token, else the cookie for that kind of account. */
    sessionToken(kind: 'member' | 'staff'): string | undefined;
  }
  interface FastifyInstance {
    sessions: SessionService;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Resolves the session from `Authorization: Bearer <token>` (API and mobile clients) or the
 * HttpOnly cookie (the web app). A Bearer token wins over cookies.
 */
async function sessionPlugin(app: FastifyInstance, options: { sessions: SessionService }) {
  app.decorate('sessions', options.sessions);
  const cache = new WeakMap<FastifyRequest, Promise<ResolvedSession | null>>();

  app.decorateRequest('sessionToken', function (this: FastifyRequest, kind: 'member' | 'staff') {
    return bearerToken(this) ?? this.cookies[kind === 'member' ? MEMBER_COOKIE : STAFF_COOKIE] ?? undefined;
  });

  app.decorateRequest('session', function (this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      const bearer = bearerToken(this);
      pending = bearer
        ? options.sessions.resolve(bearer)
        : options.sessions
            .resolve(this.cookies[MEMBER_COOKIE])
            .then((member) => member ?? options.sessions.resolve(this.cookies[STAFF_COOKIE]));
      cache.set(this, pending);
    }
    return pending;
  });
}

export default fp(sessionPlugin, { name: 'sessions', dependencies: ['@fastify/cookie'] });

/** The signed-in member, or a 401; a staff session is not a member session. */
export async function requireMember(request: FastifyRequest): Promise<MemberIdentity & { sessionId: string }> {
  const session = await memberSession(request);
  if (!session) throw unauthorized();
  return session;
}

/** The signed-in member, or null for a visitor. */
export async function optionalMember(request: FastifyRequest): Promise<(MemberIdentity & { sessionId: string }) | null> {
  return memberSession(request);
}

async function memberSession(request: FastifyRequest) {
  const bearer = bearerToken(request);
  const resolved = bearer ? await request.session() : await request.server.sessions.resolve(request.cookies[MEMBER_COOKIE]);
  return resolved?.kind === 'member' ? { ...resolved.member, sessionId: resolved.sessionId } : null;
}

/** The signed-in staff account; 401 without a session, 403 for a member's session. */
export async function requireStaff(request: FastifyRequest): Promise<StaffIdentity & { sessionId: string }> {
  const bearer = bearerToken(request);
  const resolved = bearer ? await request.session() : await request.server.sessions.resolve(request.cookies[STAFF_COOKIE]);
  if (resolved?.kind === 'staff') return { ...resolved.staff, sessionId: resolved.sessionId };
  if (resolved?.kind === 'member' || (!bearer && (await optionalMember(request)))) {
    throw forbidden('This needs an administrator account.');
  }
  throw unauthorized('Please sign in as an administrator.');
}

/** Fastify preHandler forms of the guards, for routes that only need the check. */
export const memberOnly = async (request: FastifyRequest, _reply: FastifyReply) => {
  await requireMember(request);
};
export const staffOnly = async (request: FastifyRequest, _reply: FastifyReply) => {
  await requireStaff(request);
};
