import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FlashMessage, PageSession } from '../../common/request-context.ts';
import type { Viewer } from '../../common/viewer.ts';
import type { ServerServices } from '../services.ts';
import { clearSessionCookie, setSessionCookie, STAFF_COOKIE, MEMBER_COOKIE } from '../sessions/session-cookies.ts';

const FLASH_COOKIE = 'rp_flash';
const FLASH_TYPES = new Set(['success', 'error', 'info']);

function readFlash(value: string | undefined): FlashMessage | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<FlashMessage>;
    if (typeof parsed.message !== 'string' || !FLASH_TYPES.has(parsed.type ?? '')) return null;
    return { type: parsed.type as FlashMessage['type'], message: parsed.message.slice(0, 300) };
  } catch {
    return null;
  }
}

/** The session operations of one page request: they set and clear the cookies on its reply. */
export function createPageSession(services: ServerServices, viewer: Viewer, request: FastifyRequest, reply: FastifyReply): PageSession {
  const { auth } = services;
  return {
    async signUp(input) {
      const session = await auth.register(viewer, input);
      setSessionCookie(request, reply, 'member', session.token, session.expiresAt);
    },
    async signIn(input) {
      const session = await auth.signIn(viewer, input);
      setSessionCookie(request, reply, 'member', session.token, session.expiresAt);
    },
    async signOut() {
      await auth.signOut(viewer);
      if (request.cookies[MEMBER_COOKIE]) clearSessionCookie(reply, 'member');
    },
    async staffSignIn(input) {
      const session = await auth.staffSignIn(viewer, input);
      setSessionCookie(request, reply, 'staff', session.token, session.expiresAt);
    },
    async staffSignOut() {
      await auth.staffSignOut(viewer);
      if (request.cookies[STAFF_COOKIE]) clearSessionCookie(reply, 'staff');
    },
    flash(message) {
      // Plain data in a short-lived cookie; it is shown as text, so it needs no signature.
      const value = Buffer.from(JSON.stringify(message)).toString('base64url');
      reply.setCookie(FLASH_COOKIE, value, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        maxAge: 60,
        secure: request.protocol === 'https',
      });
    },
    takeFlash() {
      const message = readFlash(request.cookies[FLASH_COOKIE]);
      if (request.cookies[FLASH_COOKIE]) reply.clearCookie(FLASH_COOKIE, { path: '/' });
      return message;
    },
  };
}
