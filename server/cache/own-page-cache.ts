import { versionsFor, type DataVersion } from './data-version.ts';
import { CACHE_BOUNDS } from '../../common/limits.ts';

/** A page as one session's browser gets it: its headers, and its body in the encoding that browser asked for. */
export interface OwnPage {
  version: string;
  /** When it was rendered (Date.now()): it is kept this.bounds.maxAgeMs at most. */
  madeAt: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The community discussions it shows, when its loader named them (keptPageDiscussionsContext). */
  discussions?: readonly string[];
}

/** Lookups of a cache of members' own pages or answers, found or not; `shared`: of the misses, those answered by the render already under way. */
export interface OwnLookups {
  hits: number;
  misses: number;
  shared: number;
}

/** Lookups of members' kept pages in this process (`/metrics`, the bench's busy hour). */
export const ownPageLookups: OwnLookups = { hits: 0, misses: 0, shared: 0 };

/** How much one such cache holds at most, and for how long. */
interface OwnKeptBounds {
  maxEntries: number;
  maxBytes: number;
  maxAgeMs: number;
}

/** Where a page's render started: the versions of all but the community, and the community's. */
export interface RenderStart {
  others: string;
  community: number;
}

/**
 * Pages rendered for one signed-in session, kept while every data version they were rendered at
 * holds, the member's own data by that member's changes only (docs/decisions/009). The caller's key
 * names the session, so a page reaches no one else. A member's own API reads are kept the same way
 * (server/cache/own-answers.ts), in a cache of their own with their own bounds and counts.
 */
export class OwnPageCache {
  private readonly versions: DataVersion[];
  /** The community's version, keyed by discussion, and the others. */
  private readonly community: DataVersion | undefined;
  private readonly others: DataVersion[];
  private readonly entries = new Map<string, OwnPage>();
  private bytes = 0;
  private readonly lookups: OwnLookups;
  private readonly bounds: OwnKeptBounds;

  constructor(
    versions: DataVersion[],
    kept: { lookups: OwnLookups; bounds: OwnKeptBounds } = { lookups: ownPageLookups, bounds: CACHE_BOUNDS.ownPages },
  ) {
    this.versions = versions;
    this.lookups = kept.lookups;
    this.bounds = kept.bounds;
    this.community = versions.find((version) => version.keyedBy === 'discussion');
    this.others = versions.filter((version) => version !== this.community);
  }

  /** Taken before a page's data is read; null while a version is unknown (the page is not kept then). */
  begin(memberId: string): RenderStart | null {
    const others = versionsFor(this.others, memberId);
    return others === null ? null : { others, community: this.community?.current ?? 0 };
  }

  /**
   * The version to keep a page rendered since `start` at, or null when something it may show changed
   * during the render: the member's own data or anything shared, and of the community the discussions
   * it shows when they are named (each known to have last changed before the render), else anything.
   */
  versionSince(start: RenderStart, memberId: string, discussions?: readonly string[]): string | null {
    if (versionsFor(this.others, memberId) !== start.others) return null;
    const community = this.community;
    if (community === undefined) return this.versionFor(memberId);
    if (discussions === undefined) return community.current === start.community ? this.versionFor(memberId) : null;
    const changedSince = discussions.some((key) => {
      const version = community.versionOf(key);
      // 'k<n>': last changed at n; anything else: the process is still catching up on what changed.
      return !version.startsWith('k') || Number(version.slice(1)) > start.community;
    });
    return changedSince ? null : this.versionFor(memberId, discussions);
  }

  /**
   * The versions a member's page holds for, as one text (their own data by their own changes only,
   * the community by the discussions it shows when they are named), or null while any is unknown.
   */
  versionFor(memberId: string, discussions?: readonly string[]): string | null {
    return versionsFor(this.versions, memberId, discussions);
  }

  /** The kept page for this key if its member's data still holds and it is fresh (and, being used, it stays longest). */
  lookup(key: string, memberId: string): OwnPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.lookups.misses += 1;
      return undefined;
    }
    this.entries.delete(key);
    if (entry.version !== this.versionFor(memberId, entry.discussions) || Date.now() - entry.madeAt > this.bounds.maxAgeMs) {
      this.bytes -= entry.body.length;
      this.lookups.misses += 1;
      return undefined;
    }
    this.entries.set(key, entry);
    this.lookups.hits += 1;
    return entry;
  }

  /** Keeps the page; answers false when it is not kept (rendered from data that changed meanwhile: it is sent once). */
  store(key: string, memberId: string, page: OwnPage): boolean {
    if (page.version !== this.versionFor(memberId, page.discussions)) return false;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.body.length;
    }
    this.entries.set(key, page);
    this.bytes += page.body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.bounds.maxEntries && this.bytes <= this.bounds.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
    return true;
  }
}
