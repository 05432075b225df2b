import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FlashMessage, PageSession } from '../../common/request-context.ts';
import type { SignedInMember, Viewer } from '../../common/viewer.ts';
import type { ServerServices } from '../services.ts';
import type { SiteCookies } from '../sessions/session-cookies.ts';
import type { SessionService } from '../sessions/session.service.ts';

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
export function createPageSession(
  server: { services: ServerServices; sessions: SessionService; cookies: SiteCookies },
  viewer: Viewer,
  request: FastifyRequest,
  reply: FastifyReply,
): PageSession {
  const { auth } = server.services;
  const { cookies } = server;

  /** The member session just started, as the viewer of the rest of this request. */
  async function startMemberSession(session: { token: string; expiresAt: Date }): Promise<SignedInMember> {
    cookies.setSession(request, reply, 'member', session.token, session.expiresAt);
    const resolved = await server.sessions.resolve(session.token);
    if (resolved?.kind !== 'member') throw new Error('A session that was just created could not be found');
    return { ...resolved.member, sessionId: resolved.sessionId };
  }

  return {
    async signUp(input) {
      return startMemberSession(await auth.register(viewer, input));
    },
    async signIn(input) {
      return startMemberSession(await auth.signIn(viewer, input));
    },
    async signOut() {
      await auth.signOut(viewer);
      cookies.clearSession(request, reply, 'member');
    },
    async staffSignIn(input) {
      const session = await auth.staffSignIn(viewer, input);
      cookies.setSession(request, reply, 'staff', session.token, session.expiresAt);
    },
    async staffSignOut() {
      await auth.staffSignOut(viewer);
      cookies.clearSession(request, reply, 'staff');
    },
    flash(message) {
      // Plain data in a short-lived cookie; it is shown as text, so it needs no signature.
      cookies.setFlash(request, reply, Buffer.from(JSON.stringify(message)).toString('base64url'));
    },
    takeFlash() {
      const message = readFlash(cookies.flash(request));
      cookies.clearFlash(request, reply);
      return message;
    },
  };
}
