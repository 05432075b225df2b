/** How many figures are kept, and for how long (CACHE_BOUNDS.insightFigures). */
export interface KeptFiguresLimits {
  maxEntries: number;
  maxAgeMs: number;
}

interface Entry {
  /** When it was first asked for (the clock's milliseconds): kept `maxAgeMs` from then. */
  madeAt: number;
  value: Promise<unknown>;
}

/**
 * Figures read once and shared for a short while: whoever asks for a key while it is being read
 * waits for that one reading, and a reading that failed is forgotten at once (the next caller reads
 * again). Entries go after `maxAgeMs` or, past `maxEntries`, the oldest first. The values are
 * shared: callers only read them.
 */
export class KeptFigures {
  private readonly limits: KeptFiguresLimits;
  private readonly now: () => Date;
  private readonly entries = new Map<string, Entry>();

  constructor(limits: KeptFiguresLimits, now: () => Date = () => new Date()) {
    this.limits = limits;
    this.now = now;
  }

  /** The value kept for `key`, or the one `load` reads (kept from now on). */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const at = this.now().getTime();
    this.forgetOld(at);
    const kept = this.entries.get(key);
    if (kept) return kept.value as Promise<T>;
    // A load that throws before its first await is a failed reading like any other.
    const value = new Promise<T>((resolve) => resolve(load()));
    const entry: Entry = { madeAt: at, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries) break;
      this.entries.delete(oldest);
    }
    return value;
  }

  /** Keys held now, oldest first (tests). */
  get keys(): string[] {
    return [...this.entries.keys()];
  }

  private forgetOld(at: number): void {
    for (const [key, entry] of this.entries) {
      const age = at - entry.madeAt;
      // A clock set back makes an entry look made in the future: stale too.
      if (age >= this.limits.maxAgeMs || age < 0) this.entries.delete(key);
    }
  }
}
