import type { FastifyReply, FastifyRequest } from 'fastify';

export type SessionKind = 'member' | 'staff';

/**
 * The site's cookies: HttpOnly, SameSite=Lax, Path=/. In production they are always Secure and
 * carry the `__Host-` prefix (the browser then refuses them from any other host or without HTTPS),
 * whether or not the request reached this process over HTTPS (a TLS proxy in front). Elsewhere
 * they are Secure when the request came over HTTPS.
 */
export class SiteCookies {
  readonly names: { member: string; staff: string; flash: string };
  private readonly production: boolean;
  private readonly written = new WeakSet<FastifyReply>();

  constructor(options: { production: boolean }) {
    this.production = options.production;
    const prefix = options.production ? '__Host-' : '';
    this.names = { member: `${prefix}rp_session`, staff: `${prefix}rp_staff`, flash: `${prefix}rp_flash` };
  }

  private attributes(request: FastifyRequest) {
    return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: this.production || request.protocol === 'https' };
  }

  sessionToken(request: FastifyRequest, kind: SessionKind): string | undefined {
    return request.cookies[this.names[kind]];
  }

  setSession(request: FastifyRequest, reply: FastifyReply, kind: SessionKind, token: string, expiresAt: Date) {
    this.written.add(reply);
    reply.setCookie(this.names[kind], token, { ...this.attributes(request), expires: expiresAt });
  }

  clearSession(request: FastifyRequest, reply: FastifyReply, kind: SessionKind) {
    if (request.cookies[this.names[kind]] === undefined) return;
    this.written.add(reply);
    reply.clearCookie(this.names[kind], this.attributes(request));
  }

  flash(request: FastifyRequest): string | undefined {
    return request.cookies[this.names.flash];
  }

  setFlash(request: FastifyRequest, reply: FastifyReply, value: string) {
    this.written.add(reply);
    reply.setCookie(this.names.flash, value, { ...this.attributes(request), maxAge: 60 });
  }

  clearFlash(request: FastifyRequest, reply: FastifyReply) {
    if (request.cookies[this.names.flash] === undefined) return;
    this.written.add(reply);
    reply.clearCookie(this.names.flash, this.attributes(request));
  }

  /** Whether this answer sets or clears any of the site's cookies (it is then one of a kind, never kept). */
  wroteTo(reply: FastifyReply): boolean {
    return this.written.has(reply);
  }

  /** Whether the request carries any of the site's cookies (a browser acting for a signed-in person). */
  carriesAny(request: FastifyRequest): boolean {
    const cookies = request.cookies;
    return cookies[this.names.member] !== undefined || cookies[this.names.staff] !== undefined || cookies[this.names.flash] !== undefined;
  }
}
