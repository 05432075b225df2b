import type { FastifyInstance } from 'fastify';
import { CACHE_BOUNDS } from '../../common/limits.ts';
import { OwnPageCache, type OwnLookups, type RenderStart } from './own-page-cache.ts';
import { preferredEncoding } from './visitor-cache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A member's read kept for their session, as sent (serialized and compressed), while what it
     * shows holds: their own data by their own changes, shared data by any change, and the community
     * by the discussions the handler names (`keptWhile`), else by any change (docs/decisions/009).
     */
    keptForSession?: boolean;
  }
  interface FastifyRequest {
    /** Set on a member's read of such a route when nothing was kept: where its answer goes. */
    ownAnswer: OwnAnswerUnderWay | null;
  }
}

interface OwnAnswerUnderWay {
  key: string;
  memberId: string;
  /** The versions before the data was read; null while one is unknown (the answer is not kept). */
  start: RenderStart | null;
  /** The community discussions the answer shows, when the handler named them (with COMMUNITY_LIST_KEY for a list). */
  discussions?: readonly string[];
}

/** Lookups of members' kept API answers in this process (`/metrics`). */
export const ownAnswerLookups: OwnLookups = { hits: 0, misses: 0, shared: 0 };

/** Headers that belong to the answer itself; the site's own (security, request id, cache-control) are added to each request anew. */
const ANSWER_HEADERS = ['content-type', 'content-encoding', 'vary', 'link'] as const;

/**
 * Names what the answer being made shows of the community, so it is kept while those discussions hold
 * rather than while nothing at all changes there. Only for an answer whose every part moves with the
 * named keys: which discussions a list holds, and in which order, must change with COMMUNITY_LIST_KEY.
 */
export function keptWhile(request: { ownAnswer: OwnAnswerUnderWay | null }, discussions: Iterable<string>): void {
  if (request.ownAnswer) request.ownAnswer.discussions = [...new Set(discussions)].sort();
}

/**
 * Members' reads of the routes marked `keptForSession` (the community feed and its search) are
 * answered with the bytes sent last time to the same session, in the same encoding, while their data
 * holds: a member paging back, or a phone reading the feed again, costs a lookup instead of the
 * queries, the serialization and the compression. Access is checked first (the viewer plugin's hook
 * runs before this one), and the key names the session, so an answer reaches no one else.
 */
export function keepMembersOwnAnswers(app: FastifyInstance): void {
  const kept = new OwnPageCache(app.dataVersions, { lookups: ownAnswerLookups, bounds: CACHE_BOUNDS.ownAnswers });
  app.decorateRequest('ownAnswer', null);

  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config.keptForSession || request.method !== 'GET') return;
    const viewer = await request.viewer();
    if (!viewer.member) return;
    const encoding = preferredEncoding(request.headers['accept-encoding']) ?? 'identity';
    const key = `${request.url} ${encoding} ${viewer.member.sessionId} ${viewer.staff?.sessionId ?? '-'}`;
    const answer = kept.lookup(key, viewer.member.id);
    if (answer) return reply.code(200).headers(answer.headers).send(answer.body);
    request.ownAnswer = { key, memberId: viewer.member.id, start: kept.begin(viewer.member.id) };
  });

  // Registered after the compression of whole answers: what is kept is what was sent.
  app.addHook('onSend', async (request, reply, payload) => {
    const made = request.ownAnswer;
    if (!made?.start || reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
    request.ownAnswer = null;
    // A change during the read to what the answer shows means it is sent once, not kept.
    const version = kept.versionSince(made.start, made.memberId, made.discussions);
    if (version === null) return payload;
    const headers: Record<string, string> = {};
    for (const name of ANSWER_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    kept.store(made.key, made.memberId, { version, discussions: made.discussions, madeAt: Date.now(), headers, body });
    return payload;
  });
}
