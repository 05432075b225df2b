import type { DataVersion } from './data-version.ts';
import { CACHE_BOUNDS } from '../../common/limits.ts';

/** A page as one session's browser gets it: its headers, and its body in the encoding that browser asked for. */
export interface OwnPage {
  version: string;
  /** When it was rendered (Date.now()): it is kept CACHE_BOUNDS.ownPages.maxAgeMs at most. */
  madeAt: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Pages rendered for one signed-in session, kept while every data version they were rendered at
 * holds (docs/decisions/009). The caller's key names the session, so a page reaches no one else.
 */
export class OwnPageCache {
  private readonly versions: DataVersion[];
  private readonly entries = new Map<string, OwnPage>();
  private bytes = 0;

  constructor(versions: DataVersion[]) {
    this.versions = versions;
  }

  /** Every version as one text, or null while any is still unknown (nothing is kept then). */
  get currentVersion(): string | null {
    if (this.versions.some((version) => version.current < 0)) return null;
    return this.versions.map((version) => version.current).join(':');
  }

  /** The kept page for this key if its data still holds and it is fresh (and, being used, it stays longest). */
  lookup(key: string): OwnPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== this.currentVersion || Date.now() - entry.madeAt > CACHE_BOUNDS.ownPages.maxAgeMs) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  store(key: string, page: OwnPage): void {
    // A page rendered from data that changed meanwhile is sent once, not kept.
    if (page.version !== this.currentVersion) return;
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
