import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { requireMember, requireStaff, requireStaffArea, requireStaffSignIn, type StaffArea } from '../../common/policies.ts';
import { type Viewer } from '../../common/viewer.ts';
import type { SiteCookies } from './session-cookies.ts';
import type { SessionService } from './session.service.ts';

/**
 * Who may call a route: declared in its options (`config: { access: 'member' }`, or an admin area
 * for staff whose role includes it, `{ area: 'members' }`), checked before anything else runs, so a
 * refused request never starts an answer (a streamed export included). 'staff-sign-in' is any staff
 * session, before the two-factor sign-in that owners require is set up (the setup itself).
 */
type RouteAccess = 'member' | 'staff' | 'staff-sign-in' | { area: StaffArea };

declare module 'fastify' {
  interface FastifyRequest {
    /** The viewer of this request, resolved once (one session query) and cached. */
    viewer(): Promise<Viewer>;
    /** Whether the viewer came from cookies that no longer open a session (pages forget them). */
    staleSessionCookies(): Promise<('member' | 'staff')[]>;
  }
  interface FastifyInstance {
    sessions: SessionService;
    siteCookies: SiteCookies;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  return /^Bearer\s+(\S+)$/i.exec(header)?.[1];
}

interface Resolved {
  viewer: Viewer;
  stale: ('member' | 'staff')[];
}

/**
 * Resolves the viewer from `Authorization: Bearer <token>` (API and mobile clients), which wins,
 * else from the member and staff HttpOnly cookies (the web app), both looked up in one query.
 */
async function resolve(sessions: SessionService, cookies: SiteCookies, request: FastifyRequest): Promise<Resolved> {
  const client = { address: request.ip, userAgent: request.headers['user-agent'] };
  const bearer = bearerToken(request);
  if (bearer) {
    const session = await sessions.resolve(bearer);
    return {
      viewer: {
        member: session?.kind === 'member' ? { ...session.member, sessionId: session.sessionId } : null,
        staff: session?.kind === 'staff' ? { ...session.staff, sessionId: session.sessionId } : null,
        client,
      },
      stale: [],
    };
  }
  const memberToken = cookies.sessionToken(request, 'member');
  const staffToken = cookies.sessionToken(request, 'staff');
  const [member, staff] = memberToken || staffToken ? await sessions.resolveMany([memberToken, staffToken]) : [null, null];
  const stale: ('member' | 'staff')[] = [];
  if (memberToken && member?.kind !== 'member') stale.push('member');
  if (staffToken && staff?.kind !== 'staff') stale.push('staff');
  return {
    viewer: {
      member: member?.kind === 'member' ? { ...member.member, sessionId: member.sessionId } : null,
      staff: staff?.kind === 'staff' ? { ...staff.staff, sessionId: staff.sessionId } : null,
      client,
    },
    stale,
  };
}

async function viewerPlugin(app: FastifyInstance, options: { sessions: SessionService; cookies: SiteCookies }) {
  app.decorate('sessions', options.sessions);
  app.decorate('siteCookies', options.cookies);
  const cache = new WeakMap<FastifyRequest, Promise<Resolved>>();
  const resolved = (request: FastifyRequest) => {
    let pending = cache.get(request);
    if (!pending) {
      pending = resolve(options.sessions, options.cookies, request);
      cache.set(request, pending);
    }
    return pending;
  };
  app.decorateRequest('viewer', async function (this: FastifyRequest) {
    return (await resolved(this)).viewer;
  });
  app.decorateRequest('staleSessionCookies', async function (this: FastifyRequest) {
    return (await resolved(this)).stale;
  });

  // Access is decided before the body is even validated, so a visitor learns nothing of a route's input.
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access === 'member') requireMember(await request.viewer());
    else if (access === 'staff') requireStaff(await request.viewer());
    else if (access === 'staff-sign-in') requireStaffSignIn(await request.viewer());
    else if (access) requireStaffArea(await request.viewer(), access.area);
  });
}

export default fp(viewerPlugin, { name: 'viewer', dependencies: ['@fastify/cookie'] });
