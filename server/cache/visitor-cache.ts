import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SiteCookies } from '../sessions/session-cookies.ts';
import type { DataVersion } from './data-version.ts';
import { CACHE_BOUNDS } from '../../common/limits.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** An answer every visitor gets alike, kept ready in each encoding a browser may ask for. */
export interface SharedAnswer {
  /** The data versions it was made at (VisitorCache.versionFor). */
  version: string;
  status: number;
  headers: Record<string, string>;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
  /** For a public API answer, the route pattern it came from (the metrics' label when the front door gives it). */
  route?: string;
}

/** The route config of a public read whose answer is the same for every visitor (see shared-api-answers.ts). */
export const VISITORS_ALIKE = { visitorCache: true } as const;

/** What `produce` made: an answer to share, or one only for the visitor who asked. */
type Produced<T> = { share: SharedAnswer } | { own: T };

/**
 * A request that could be anyone's: a read with none of the site's cookies and no token. Only such
 * requests are answered from, or feed, the shared cache; a signed-in request never touches it.
 */
export function isVisitorRead(request: FastifyRequest, cookies: SiteCookies): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !request.headers.authorization && !cookies.carriesAny(request);
}

/**
 * Compresses once, when the answer is kept: brotli at a high setting is affordable when it serves
 * thousands of requests. Quality 10, not 9: the home page then fits in the first 14.6 KB a new
 * connection may send (the first round trip of a slow phone network), for about 25 ms once.
 */
export async function shareableAnswer(
  version: string,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
): Promise<SharedAnswer> {
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzip(body, { level: 9 }),
  ]);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { version, status, headers, identity: body, br, gzip: gz, etag };
}

// Browsers send a handful of different Accept-Encoding values: each is read once (a bounded memo).
const parsedEncodings = new Map<string, 'br' | 'gzip' | undefined>();
/** The encoding to send: brotli when the browser takes it, else gzip, else none. */
export function preferredEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  if (accept === undefined) return undefined;
  if (parsedEncodings.has(accept)) return parsedEncodings.get(accept);
  const parsed = parseEncoding(accept);
  if (parsedEncodings.size < 64) parsedEncodings.set(accept, parsed);
  return parsed;
}
function parseEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  const offered = new Set<string>();
  for (const part of (accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const quality = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (name && !(quality && Number(quality.slice(2)) === 0)) offered.add(name);
  }
  if (offered.has('br')) return 'br';
  if (offered.has('gzip')) return 'gzip';
  return undefined;
}

/** A kept answer's whole header set per encoding, made once: each hit sends one object, not five headers. */
const headerSets = new WeakMap<SharedAnswer, Record<'br' | 'gzip' | 'identity', Record<string, string>>>();
export function headerSetsOf(answer: SharedAnswer) {
  let sets = headerSets.get(answer);
  if (!sets) {
    // Browsers may keep it, but ask again each time (a 304 costs next to nothing).
    const common = {
      ...answer.headers,
      'cache-control': 'private, no-cache',
      vary: 'Accept-Encoding, Cookie, Authorization',
      etag: answer.etag,
    };
    sets = { br: { ...common, 'content-encoding': 'br' }, gzip: { ...common, 'content-encoding': 'gzip' }, identity: common };
    headerSets.set(answer, sets);
  }
  return sets;
}
export function sendShared(request: FastifyRequest, reply: FastifyReply, answer: SharedAnswer) {
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  reply.code(answer.status).headers(headerSetsOf(answer)[encoding ?? 'identity']);
  if (request.headers['if-none-match'] === answer.etag) {
    reply.removeHeader('content-encoding');
    return reply.code(304).send();
  }
  return reply.send(encoding === 'br' ? answer.br : encoding === 'gzip' ? answer.gzip : answer.identity);
}

// The community's page and its API answer also show the community, whose changes are counted apart
// (migration 0012): a like makes them stale, and no other page. A discussion's own page and answer
// show that discussion alone: only a change to it makes them stale (migration 0030).
const SHOWS_COMMUNITY = /^(?:api:\/api|page:)\/community(?:[/?.]|$)/;
const SHOWS_ONE_DISCUSSION = /^(?:api:\/api\/community\/posts|page:\/community)\/([^/?.]+)/;

/** The id in an address as the database holds it; a malformed escape is kept as it came. */
function readableId(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Answers shared by every visitor (rendered pages, public API reads), by URL, kept while the data
 * versions they were made at are current: the catalogue's, and the community's for what shows it.
 * When many visitors ask at once for an answer that is not ready, one request makes it and the
 * others wait for it.
 */
export class VisitorCache {
  private readonly catalogue: DataVersion;
  private readonly community: DataVersion | undefined;
  private readonly entries = new Map<string, SharedAnswer>();
  private readonly making = new Map<string, Promise<SharedAnswer | null>>();
  private bytes = 0;
  /** The key last in the order of eviction, when known. */
  private newest: string | undefined;

  constructor(catalogue: DataVersion, community?: DataVersion) {
    this.catalogue = catalogue;
    this.community = community;
  }

  /** The versions of the data the answer for `key` is made of, as one text. */
  versionFor(key: string): string {
    if (!this.community || !SHOWS_COMMUNITY.test(key)) return `${this.catalogue.current}`;
    const discussion = SHOWS_ONE_DISCUSSION.exec(key)?.[1];
    return discussion
      ? `${this.catalogue.current}:${this.community.versionOf(readableId(discussion))}`
      : `${this.catalogue.current}:${this.community.current}`;
  }

  /** The kept answer for this key if it is current (and, being used, it stays longest). */
  lookup(key: string): SharedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== this.versionFor(key)) {
      this.entries.delete(key);
      if (this.newest === key) this.newest = undefined;
      this.bytes -= size(entry);
      return undefined;
    }
    // Used, it goes last in the order of eviction; an answer asked for again and again (the
    // catalogue) is already last, and is not taken out and put back on every request.
    if (this.newest !== key) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry;
  }

  store(key: string, answer: SharedAnswer): void {
    // An answer made from data that changed meanwhile is used once, not kept.
    if (answer.version !== this.versionFor(key)) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= size(previous);
    }
    this.entries.set(key, answer);
    this.newest = key;
    this.bytes += size(answer);
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= CACHE_BOUNDS.visitorPages.maxEntries && this.bytes <= CACHE_BOUNDS.visitorPages.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= size(entry);
    }
  }

  /**
   * The current answer for `key`, or what `produce` makes of it; only one request produces at a
   * time. A request whose production is not for sharing keeps it for itself, and the requests
   * that waited for it make their own.
   */
  async answer<T>(key: string, produce: () => Promise<Produced<T>>): Promise<Produced<T>> {
    const kept = this.lookup(key);
    if (kept) return { share: kept };
    const underway = this.making.get(key);
    if (underway) {
      const made = await underway.catch(() => null);
      if (made) return { share: made };
      return produce();
    }
    let settle!: (answer: SharedAnswer | null) => void;
    this.making.set(
      key,
      new Promise((resolve) => {
        settle = resolve;
      }),
    );
    try {
      const produced = await produce();
      if ('share' in produced) this.store(key, produced.share);
      settle('share' in produced ? produced.share : null);
      return produced;
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      this.making.delete(key);
    }
  }
}

const size = (answer: SharedAnswer) => answer.identity.length + answer.br.length + answer.gzip.length;
