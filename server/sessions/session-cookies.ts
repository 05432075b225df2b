import type { FastifyReply, FastifyRequest } from 'fastify';

export type SessionKind = 'member' | 'staff';

export const MEMBER_COOKIE = 'rp_session';
export const STAFF_COOKIE = 'rp_staff';
const cookieNameFor = (kind: SessionKind) => (kind === 'member' ? MEMBER_COOKIE : STAFF_COOKIE);

/**
 * HttpOnly, SameSite=Lax; Secure whenever the request came over HTTPS (behind a proxy, set
 * TRUST_PROXY so the forwarded protocol counts). The web app never sees the token itself.
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, kind: SessionKind, token: string, expiresAt: Date) {
  reply.setCookie(cookieNameFor(kind), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, kind: SessionKind) {
  reply.clearCookie(cookieNameFor(kind), { path: '/' });
}
