import type { FastifyReply, FastifyRequest } from 'fastify';
import { MEMBER_COOKIE, STAFF_COOKIE } from './session.plugin.ts';

/**
 * HttpOnly, SameSite=Lax; Secure whenever the request came over HTTPS (behind a proxy, set
 * TRUST_PROXY so the forwarded protocol counts). The web app never sees the token itself.
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, kind: 'member' | 'staff', token: string, expiresAt: Date) {
  reply.setCookie(kind === 'member' ? MEMBER_COOKIE : STAFF_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, kind: 'member' | 'staff') {
  reply.clearCookie(kind === 'member' ? MEMBER_COOKIE : STAFF_COOKIE, { path: '/' });
}
