import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client.ts';
import { dataVersions } from '../../db/schema.ts';
import { CACHE_BOUNDS } from '../../common/limits.ts';

/** However the news travels, a process learns of a change within this long. */
const POLL_MS = 1000;
/** An announcement of a version the process already read is waited for this long before everything counts as changed. */
const ANNOUNCEMENT_WAIT_MS = 2000;
/** The longest a request that wrote waits to read the versions again from PostgreSQL before it answers. */
const POST_WRITE_READ_MS = 1000;
/**
 * A version read from the database (after a write, or by the poll) whose announcement has not come
 * yet is waited for this long before the process takes the number alone (and with it, everything of
 * a keyed kind as changed). The announcement is sent at commit, before the read even starts, and is
 * heard within a millisecond or two: taken alone at once, each write of a busy hour made every
 * member's kept sessions and pages stale until it came.
 */
const ANNOUNCEMENT_GRACE_MS = 100;

/** The kinds of data whose changes the database counts (the triggers of migration 0005). */
type DataVersionName = 'public' | 'member' | 'session' | 'community';

/**
 * The version of a kind of data: 'public', the catalogue and everything else a visitor can see but
 * the community; 'community', its discussions (counted apart so a like makes stale only what shows
 * the community); 'member', what members see of their own; 'session', whether sessions and staff
 * accounts still stand. Database triggers raise it with every change (migration 0005) and announce the
 * new number; every process keeps the latest in memory, so a cache checks it without a query.
 * Three ways in, for a delay under a second on any setup: the announcement (LISTEN), a poll each
 * second, and a read after each of this process's own writes.
 */
export class DataVersion {
  /** The version the process knows; -1 until the first read (then nothing matches it). */
  current = -1;
  private readonly handle: DatabaseHandle;
  private readonly log: { warn(object: object, message: string): void };
  private stopListening: (() => Promise<void>) | undefined;
  private poll: NodeJS.Timeout | undefined;
  private readonly name: DataVersionName;
  private readonly keyed: KeyedChanges | undefined;
  /** What its changes name: a member (the 'member' data, migration 0040), a discussion (the community's), or nothing. */
  readonly keyedBy: 'member' | 'discussion' | undefined;

  constructor(
    handle: DatabaseHandle,
    log: { warn(object: object, message: string): void },
    name: DataVersionName,
    options: { keyedBy?: 'member' | 'discussion' } = {},
  ) {
    this.handle = handle;
    this.log = log;
    this.name = name;
    this.keyedBy = options.keyedBy;
    this.keyed = options.keyedBy ? new KeyedChanges() : undefined;
  }

  async start(): Promise<void> {
    await this.refresh();
    try {
      this.stopListening = await this.handle.listen(`${this.name}_data_changed`, (payload) => {
        // "version", or "version:key,key" where the change names what it touched (KeyedChanges).
        const [number = '', keys] = payload.split(':', 2);
        const announced = Number(number);
        if (!Number.isSafeInteger(announced)) return;
        if (keys !== undefined) this.keyed?.announced(announced, keys, this.current);
        this.advance(announced);
      });
    } catch (error) {
      this.log.warn({ err: error }, 'could not listen for data changes; relying on polling');
    }
    this.poll = setInterval(() => void this.refresh().catch(() => {}), POLL_MS);
    this.poll.unref();
  }

  /** Reads the version from the database (after a write of this process, so its next answer is fresh). */
  async refresh(): Promise<void> {
    const [row] = await this.handle.db.select({ version: dataVersions.version }).from(dataVersions).where(eq(dataVersions.name, this.name));
    await this.reach(row?.version ?? 0);
  }

  /**
   * A version read from the database: for keyed data, its announcement (which names what changed) is
   * waited for a moment first, so a change already on its way is taken with its keys, not as a change
   * to everything; the number is taken alone when the announcement does not come in time.
   */
  private async reach(version: number): Promise<void> {
    if (this.keyed && version > this.current) await this.keyed.untilHeard(version, ANNOUNCEMENT_GRACE_MS);
    this.advance(version);
  }

  /**
   * Reads several versions in one query (after a write, which may have changed any of them). A
   * request waits for it `waitMs` at most: a PostgreSQL that stalls right after the write must not
   * hold the answer (the announcement and the poll bring the news a moment later). The embedded
   * database is in the process: it cannot stall apart from it, and its read is always waited for.
   */
  static async refreshAll(versions: DataVersion[], waitMs = POST_WRITE_READ_MS): Promise<void> {
    const first = versions[0];
    if (!first) return;
    const read = first.handle.db
      .select()
      .from(dataVersions)
      .then(async (rows) => {
        await Promise.all(versions.map((version) => version.reach(rows.find((row) => row.name === version.name)?.version ?? 0)));
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the data versions took longer than ${waitMs} ms to read`)), waitMs);
      timer.unref();
    });
    try {
      await (first.handle.kind === 'embedded' ? read : Promise.race([read, late]));
    } finally {
      clearTimeout(timer);
      // A read that lost the race settles later, unheard.
      read.catch(() => {});
    }
  }

  /** Versions only grow: a read that was overtaken by an announcement never takes the process back. */
  private advance(version: number): void {
    if (version > this.current) this.current = version;
    this.keyed?.reached(this.current);
  }

  /**
   * The version of one thing of this kind (a discussion), for data whose changes name what they
   * touched: it moves when that thing changes, or when the process cannot tell what changed (an
   * announcement missed, or not arrived yet), never for a change to another thing.
   */
  versionOf(key: string): string {
    return this.keyed ? this.keyed.versionOf(key, this.current) : `g${this.current}`;
  }

  async stop(): Promise<void> {
    clearInterval(this.poll);
    await this.stopListening?.().catch(() => {});
  }
}

/**
 * Several versions as one text, for what one member sees (their own data by their own changes only,
 * shared data by every change), or for everyone when no member is named; with `discussions`, the
 * community by the changes to those discussions only; null while any is still unknown (nothing is
 * kept then).
 */
export function versionsFor(versions: readonly DataVersion[], memberId?: string, discussions?: readonly string[]): string | null {
  if (versions.some((version) => version.current < 0)) return null;
  return versions
    .map((version) => {
      if (memberId !== undefined && version.keyedBy === 'member') return version.versionOf(memberId);
      if (discussions !== undefined && version.keyedBy === 'discussion') return discussions.map((key) => version.versionOf(key)).join(',');
      return version.current;
    })
    .join(':');
}

/**
 * What each announced change touched, for the things of one kind of data (the community's
 * discussions, migration 0030): the version at which each thing last changed, for the most recently
 * changed ones (CACHE_BOUNDS.keyedChanges); a thing no longer remembered counts as changed when the
 * oldest remembered change was forgotten (the floor). Announcements come in version order (each
 * version is taken under the row lock of its counter, in commit order). While the process knows of
 * a version whose announcement it has not heard (it read the number after its own write, or the
 * announcement was lost), every thing counts as changed; an announcement still missing after
 * `ANNOUNCEMENT_WAIT_MS` is given up on: everything changed then.
 */
class KeyedChanges {
  private readonly changedAt = new Map<string, number>();
  /** Every version up to this one has been announced and its keys noted. */
  private heardThrough = -1;
  /** Reads waiting for the announcement of a version (heardThrough below). */
  private readonly waiting = new Set<{ version: number; done: () => void }>();

  /** Resolves once every version up to `version` has been announced, or after `waitMs` (whichever comes first). */
  untilHeard(version: number, waitMs: number): Promise<void> {
    if (this.heardThrough < 0 || version <= this.heardThrough) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        version,
        done: () => {
          clearTimeout(timer);
          this.waiting.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.done, waitMs);
      timer.unref();
      this.waiting.add(waiter);
    });
  }
  private floor = 0;
  private unheardSince: number | null = null;

  /** An announcement: `version` touched these keys ('*' for too many to name, '' for none). */
  announced(version: number, keys: string, known: number): void {
    if (this.heardThrough < 0) this.heardThrough = known;
    if (version <= this.heardThrough) return;
    if (version !== this.heardThrough + 1 || keys === '*') this.floor = version;
    else for (const key of keys.split(',')) if (key) this.remember(key, version);
    this.heardThrough = version;
    if (this.unheardSince !== null && this.heardThrough >= this.reachedVersion) this.unheardSince = null;
    for (const waiter of this.waiting) if (waiter.version <= this.heardThrough) waiter.done();
  }

  private reachedVersion = -1;

  /** The process knows the data is at `version` now (announced, polled or read after a write). */
  reached(version: number): void {
    this.reachedVersion = version;
    if (this.heardThrough < 0) {
      // The first read: everything before it counts as changed.
      this.heardThrough = version;
      this.floor = version;
      return;
    }
    if (version > this.heardThrough) this.unheardSince ??= Date.now();
  }

  versionOf(key: string, current: number): string {
    if (current > this.heardThrough) {
      if (this.unheardSince !== null && Date.now() - this.unheardSince > ANNOUNCEMENT_WAIT_MS) {
        this.floor = current;
        this.heardThrough = current;
        this.unheardSince = null;
      } else {
        return `g${current}`;
      }
    }
    return `k${Math.max(this.changedAt.get(key) ?? 0, this.floor)}`;
  }

  private remember(key: string, version: number): void {
    this.changedAt.delete(key);
    this.changedAt.set(key, version);
    for (const [oldest, changed] of this.changedAt) {
      if (this.changedAt.size <= CACHE_BOUNDS.keyedChanges.maxEntries) break;
      this.changedAt.delete(oldest);
      this.floor = Math.max(this.floor, changed);
    }
  }
}
