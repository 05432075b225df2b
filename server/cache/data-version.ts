import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client.ts';
import { dataVersions } from '../../db/schema.ts';

/** However the news travels, a process learns of a change within this long. */
const POLL_MS = 1000;
/** The longest a request that wrote waits to read the versions again from PostgreSQL before it answers. */
const POST_WRITE_READ_MS = 1000;

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

  constructor(handle: DatabaseHandle, log: { warn(object: object, message: string): void }, name: DataVersionName) {
    this.handle = handle;
    this.log = log;
    this.name = name;
  }

  async start(): Promise<void> {
    await this.refresh();
    try {
      this.stopListening = await this.handle.listen(`${this.name}_data_changed`, (payload) => {
        const announced = Number(payload);
        if (Number.isSafeInteger(announced)) this.advance(announced);
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
    this.advance(row?.version ?? 0);
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
      .then((rows) => {
        for (const version of versions) version.advance(rows.find((row) => row.name === version.name)?.version ?? 0);
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
  }

  async stop(): Promise<void> {
    clearInterval(this.poll);
    await this.stopListening?.().catch(() => {});
  }
}
