import { versionsFor, type DataVersion } from './data-version.ts';
import { CACHE_BOUNDS } from '../../common/limits.ts';

/** A page as one session's browser gets it: its headers, and its body in the encoding that browser asked for. */
export interface OwnPage {
  version: string;
  /** When it was rendered (Date.now()): it is kept CACHE_BOUNDS.ownPages.maxAgeMs at most. */
  madeAt: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Lookups of members' kept pages in this process, found or not (`/metrics`, the bench's busy hour). */
export const ownPageLookups = { hits: 0, misses: 0 };

/**
 * Pages rendered for one signed-in session, kept while every data version they were rendered at
 * holds, the member's own data by that member's changes only (docs/decisions/009). The caller's key names the session, so a page reaches no one else.
 */
export class OwnPageCache {
  private readonly versions: DataVersion[];
  private readonly entries = new Map<string, OwnPage>();
  private bytes = 0;

  constructor(versions: DataVersion[]) {
    this.versions = versions;
  }

  /** The versions a member's page holds for, as one text (their own data by their own changes only), or null while any is unknown. */
  versionFor(memberId: string): string | null {
    return versionsFor(this.versions, memberId);
  }

  /** The kept page for this key if its member's data still holds and it is fresh (and, being used, it stays longest). */
  lookup(key: string, memberId: string): OwnPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      ownPageLookups.misses += 1;
      return undefined;
    }
    this.entries.delete(key);
    if (entry.version !== this.versionFor(memberId) || Date.now() - entry.madeAt > CACHE_BOUNDS.ownPages.maxAgeMs) {
      this.bytes -= entry.body.length;
      ownPageLookups.misses += 1;
      return undefined;
    }
    this.entries.set(key, entry);
    ownPageLookups.hits += 1;
    return entry;
  }

  store(key: string, memberId: string, page: OwnPage): void {
    // A page rendered from data that changed meanwhile is sent once, not kept.
    if (page.version !== this.versionFor(memberId)) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.body.length;
    }
    this.entries.set(key, page);
    this.bytes += page.body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= CACHE_BOUNDS.ownPages.maxEntries && this.bytes <= CACHE_BOUNDS.ownPages.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }
}
