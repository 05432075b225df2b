import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import * as tar from 'tar';
import { isConnectionLost, isTransientConflict } from './database-errors.ts';
import { acquireDirectoryLock, type DirectoryLock } from './lock.ts';
import { copyWhileRunning } from './online-copy.ts';
import * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query API; inside a transaction use only this handle. */
export type DatabaseOrTransaction = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// The newest migration this code knows, by the time stamp drizzle records for each one applied.
const LATEST_MIGRATION_AT = Math.max(
  ...(
    JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] }
  ).entries.map((entry) => entry.when),
);

async function schemaIsCurrent(db: { execute(query: ReturnType<typeof sql>): Promise<unknown> }): Promise<boolean> {
  const result = (await db.execute(sql`select max(created_at)::float8 as latest from drizzle.__drizzle_migrations`)) as {
    rows: { latest: number | null }[];
  };
  return Number(result.rows[0]?.latest ?? 0) >= LATEST_MIGRATION_AT;
}

export interface DatabaseHandle {
  db: Database;
  kind: 'embedded' | 'postgres';
  /** Resolves once the database answers a query; rejects past `timeoutMs` (readiness asks for 1 s). */
  ping(timeoutMs?: number): Promise<void>;
  /** Connections open, idle and waited for (metrics); the embedded database has one, always open. */
  poolStats(): { total: number; idle: number; waiting: number };
  migrate(): Promise<void>;
  /** Whether every migration this code knows has been applied (readiness). */
  schemaIsCurrent(): Promise<boolean>;
  /**
   * Runs `work` (migrations, the first staff account, the demo catalogue) while no other process
   * does the same: on PostgreSQL under an advisory lock, so any number of servers can start at once.
   */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` unless another process is running the job of the same name (PostgreSQL advisory
   * lock, not waited for); answers whether it ran. Embedded: there is only one process.
   */
  runAlone(job: string, work: () => Promise<void>): Promise<boolean>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel`, from any process; on PostgreSQL
   * over a connection of its own that is opened again if it drops. Resolves, once listening, to
   * the function that stops.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Embedded only: a gzip tarball of the data directory, restorable with `loadDataDir`. */
  dumpDataDir?(): Promise<Blob>;
}

export type DatabaseLocation =
  | { kind: 'postgres'; url: string; timeouts?: DatabaseTimeouts }
  | { kind: 'embedded'; dataDir: string; purpose: string }
  | { kind: 'memory'; loadDataDir?: Blob };

// The advisory lock key of the start-up work, the same in every process of the site ('rp-start').
const STARTUP_LOCK_KEY = 0x72702d7374617274n.toString();

/**
 * drizzle's migrator for PostgreSQL, with each migration's statements sent as one text (the simple
 * query protocol takes several at once): its 600 statements, each a round trip, were a third of a
 * first start on PostgreSQL. The same bookkeeping as drizzle's (`drizzle.__drizzle_migrations`, a
 * migration applied when its folder time stamp is newer than the last one recorded), and the same
 * single transaction for all that are pending.
 */
async function migrateInFewRoundTrips(client: pg.Client): Promise<void> {
  await client.query('create schema if not exists "drizzle"');
  await client.query(
    'create table if not exists "drizzle"."__drizzle_migrations" (id serial primary key, hash text not null, created_at bigint)',
  );
  const { rows } = await client.query<{ created_at: string }>(
    'select created_at from "drizzle"."__drizzle_migrations" order by created_at desc limit 1',
  );
  const last = rows[0] ? Number(rows[0].created_at) : undefined;
  const pending = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).filter(
    (migration) => last === undefined || last < migration.folderMillis,
  );
  if (pending.length === 0) return;
  await client.query('begin');
  try {
    for (const migration of pending) {
      // Every statement of a migration file ends with a semicolon (db/migrations.test.ts checks it).
      await client.query(migration.sql.join('\n'));
      await client.query('insert into "drizzle"."__drizzle_migrations" ("hash", "created_at") values ($1, $2)', [
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}

/** PostgreSQL extensions the schema uses, which the embedded database must load to open it (migrations 0012 and 0018). */
export const EMBEDDED_EXTENSIONS = { pg_trgm, btree_gist };

export function embeddedDataPath(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** Where an online backup copies the database's files, beside them (removed after; see startFromSnapshot). */
const DUMP_COPY_PREFIX = '.dump-';

/** The migrated empty database that `npm run build` makes (scripts/prepare-start.ts): a data directory. */
export const EMBEDDED_SNAPSHOT_DIR = fileURLToPath(new URL('../build/embedded-database', import.meta.url));

/**
 * A new data directory starts as a copy of the build's snapshot when there is one (the migrations
 * after it still run): copying its files takes a few tens of ms, creating a cluster seconds. A
 * directory that already holds a database is opened as it is.
 */
function startFromSnapshot(dataPath: string): void {
  // What a process that died left behind: a backup's copy of the database, or a half-made start.
  const dataDir = path.dirname(dataPath);
  const leftOver = (entry: string) => entry.startsWith(DUMP_COPY_PREFIX) || entry.startsWith(`${path.basename(dataPath)}.new-`);
  for (const entry of fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : [])
    if (leftOver(entry)) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  if (fs.existsSync(path.join(dataPath, 'PG_VERSION')) || !fs.existsSync(path.join(EMBEDDED_SNAPSHOT_DIR, 'PG_VERSION'))) return;
  // Copied beside, then moved into place whole: a start that dies midway leaves no half database.
  const copy = `${dataPath}.new-${process.pid}`;
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(EMBEDDED_SNAPSHOT_DIR, copy, { recursive: true });
  fs.rmSync(dataPath, { recursive: true, force: true });
  fs.renameSync(copy, dataPath);
}

export async function openDatabase(location: DatabaseLocation): Promise<DatabaseHandle> {
  if (location.kind === 'postgres') return openPostgres(location.url, location.timeouts ?? DEFAULT_DATABASE_TIMEOUTS);
  let lock: DirectoryLock | undefined;
  let client: PGlite;
  let dataPath: string | undefined;
  if (location.kind === 'embedded') {
    lock = acquireDirectoryLock(location.dataDir, location.purpose);
    try {
      dataPath = embeddedDataPath(location.dataDir);
      startFromSnapshot(dataPath);
      client = await PGlite.create(dataPath, { extensions: EMBEDDED_EXTENSIONS });
    } catch (error) {
      lock.release();
      throw error;
    }
  } else {
    client = await PGlite.create({ extensions: EMBEDDED_EXTENSIONS, ...(location.loadDataDir && { loadDataDir: location.loadDataDir }) });
  }
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  let closed = false;
  return {
    db: db as unknown as Database,
    kind: 'embedded',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    schemaIsCurrent: () => schemaIsCurrent(db),
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    // The directory lock already makes this process the only one.
    withStartupLock: (work) => work(),
    runAlone: async (_job, work) => {
      await work();
      return true;
    },
    dumpDataDir: () => (dataPath ? dumpFromDisk(client, dataPath) : (client.dumpDataDir('gzip') as Promise<Blob>)),
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * The embedded database on disk as a gzip tarball that `loadDataDir` takes, made without stopping
 * the site: PGlite's own dump reads every file and builds the archive on the main thread, so no
 * request was answered for the whole dump (seconds). Here the files are copied with asynchronous
 * I/O while queries go on, then what changed meanwhile again while no query runs (PGlite's query lock,
 * for milliseconds: a crash-consistent copy, which a restore replays), and the archive is made from
 * the copy, a chunk at a time, while requests go on.
 */
async function dumpFromDisk(client: PGlite, dataPath: string): Promise<Blob> {
  // Dirty pages written out first, so a restore replays little or no WAL.
  await client.exec('CHECKPOINT');
  const copy = await fs.promises.mkdtemp(path.join(path.dirname(dataPath), DUMP_COPY_PREFIX));
  try {
    await copyWhileRunning(dataPath, copy, (work) => client.runExclusive(work));
    // Compressed by zlib's own threads (a gzip stream), not on the main thread as tar's gzip option does.
    const chunks: Buffer[] = [];
    const archive = tar.create({ cwd: copy, portable: true }, await fs.promises.readdir(copy));
    await pipeline(archive, zlib.createGzip(), async (compressed: AsyncIterable<Buffer>) => {
      for await (const chunk of compressed) chunks.push(chunk);
    });
    return new Blob(
      chunks.map((chunk) => new Uint8Array(chunk)),
      { type: 'application/x-gzip' },
    );
  } finally {
    await fs.promises.rm(copy, { recursive: true, force: true });
  }
}

/** How long the database may take, per use (README, Configuration). */
interface DatabaseTimeouts {
  /** A new connection, including the wait for a free one in the pool. */
  connectMs: number;
  /** One statement of a request; the server cancels it past this. Migrations and backups have none. */
  statementMs: number;
  /** Connections a process keeps open at most. */
  poolSize: number;
}

const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 2_000, statementMs: 4_000, poolSize: 10 };
// A transaction left open by a stalled request is ended by the server, so its locks never pile up.
const IDLE_IN_TRANSACTION_MS = 10_000;

const isReadStatement = (query: unknown) => {
  const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' && /^\s*select\b/i.test(text) && !/\bfor\s+(update|share|no key update)\b/i.test(text);
};

/**
 * A connection whose query went unanswered past its timeout is closed rather than reused: its
 * answer may still arrive and would be read as the next query's.
 */
function closeOnReadTimeout(client: pg.Client): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const close = (error: unknown) => {
    if ((error as Error | null)?.message === 'Query read timeout')
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) result.catch(close);
    return result;
  };
}

type PoolConnect = (
  callback?: (error: Error | undefined, client?: pg.PoolClient, done?: (release?: Error | boolean) => void) => void,
) => unknown;

/**
 * A connection taken from the pool goes back to it exactly once: when its holder releases it, or as
 * soon as it ends under its holder (the server restarted, a read timed out), whichever comes first;
 * a later release is then a no-op. Without this, one the holder never hands back stays counted
 * against the pool for good: drizzle's `transaction()` sends BEGIN before its try/finally, so a
 * restart that kills the connection under BEGIN leaked it, and each restart left the pool a little
 * smaller until requests, waiting for a free connection, answered 503 with the database up.
 */
function releaseOnceAndOnEnd(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as PoolConnect;
  const guard = (client: pg.PoolClient): pg.PoolClient => {
    const release = client.release;
    let released = false;
    const giveBack = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      client.off('end', onEnd);
      release(error);
    };
    const onEnd = () => giveBack(new Error('the connection ended while it was checked out'));
    client.once('end', onEnd);
    client.release = giveBack;
    return client;
  };
  // pg-pool's own query() checks out with a callback; drizzle's transaction() with a promise.
  (pool as unknown as { connect: PoolConnect }).connect = (callback) => {
    if (!callback) return (connect() as Promise<pg.PoolClient>).then(guard);
    return connect((error, client) => {
      if (error || !client) return callback(error);
      const guarded = guard(client);
      callback(undefined, guarded, guarded.release);
    });
  };
}

/** How many times a transaction or a statement the database rolled back for a conflict is run in all. */
const CONFLICT_ATTEMPTS = 4;

/**
 * A transaction (or a single statement) that PostgreSQL rolled back because it met another one (a
 * deadlock, a serialization failure) is run again, after a short random wait, a few times at most.
 * Writes that touch several tables announce their changes on shared counters (data_versions) in the
 * order they touch them, so two such writes can deadlock on a busy site; the member must not see a
 * 500 for it. Safe to run again: the database undid all of it, and what a transaction does besides
 * (mail, push) goes through the outbox, written in the same transaction.
 */
function runConflictsAgain(pool: pg.Pool, db: ReturnType<typeof drizzlePg<typeof schema>>): void {
  const again = async <T>(work: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= CONFLICT_ATTEMPTS || !isTransientConflict(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
      }
    }
  };
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) => again(() => transaction(work, config))) as typeof db.transaction;
  const poolQuery = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) =>
    typeof args.at(-1) === 'function' ? poolQuery(...args) : again(() => poolQuery(...args));
}

async function openPostgres(url: string, timeouts: DatabaseTimeouts): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: timeouts.poolSize,
    connectionTimeoutMillis: timeouts.connectMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    statement_timeout: timeouts.statementMs,
    // The driver stops waiting at the same time on its own: a frozen server answers no cancel.
    query_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    application_name: 'realtypocket',
  });
  // A connection that drops (a restart, a failover) must never crash the process: idle ones are
  // replaced by the pool, and one in use fails its query, which the request answers with a 503.
  pool.on('error', () => {});
  releaseOnceAndOnEnd(pool);
  pool.on('connect', (client) => {
    client.on('error', () => {});
    closeOnReadTimeout(client);
  });
  // A read that met a connection lost under it (the server restarted) is sent once more on a fresh one.
  const poolQuery = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args: unknown[]) => {
    if (typeof args.at(-1) === 'function') return poolQuery(...args);
    try {
      return await poolQuery(...args);
    } catch (error) {
      if (!isConnectionLost(error) || !isReadStatement(args[0])) throw error;
      return poolQuery(...args);
    }
  };
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  runConflictsAgain(pool, db);
  let closed = false;
  const listeners = new Set<pg.Client>();

  /** A connection of its own, without a statement timeout: migrations, locks held while others wait, long jobs. */
  async function connectLongLived(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeouts.connectMs, keepAlive: true });
    client.on('error', () => {});
    await client.connect();
    return client;
  }

  /**
   * A connection that only listens. When it drops, another takes its place, tried again with a
   * growing wait (up to 5 s) until the database answers or the listener is stopped.
   */
  async function listenOn(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let stopped = false;
    let current: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    let failures = 0;
    const reconnectLater = () => {
      if (stopped || closed || retry) return;
      retry = setTimeout(
        () => {
          retry = undefined;
          connect().catch(() => {
            failures += 1;
            reconnectLater();
          });
        },
        Math.min(250 * 2 ** failures, 5_000),
      );
      retry.unref();
    };
    const connect = async (): Promise<void> => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeouts.connectMs, keepAlive: true });
      current = client;
      listeners.add(client);
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      let lost = false;
      const onLost = () => {
        if (lost) return;
        lost = true;
        listeners.delete(client);
        void client.end().catch(() => {});
        reconnectLater();
      };
      client.on('error', onLost);
      client.on('end', onLost);
      try {
        await client.connect();
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        failures = 0;
      } catch (error) {
        lost = true;
        listeners.delete(client);
        void client.end().catch(() => {});
        throw error;
      }
    };
    await connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      if (current) listeners.delete(current);
      await current?.end().catch(() => {});
    };
  }

  return {
    db: db as unknown as Database,
    kind: 'postgres',
    ping: async (timeoutMs) => {
      await pool.query({ text: 'select 1', query_timeout: timeoutMs } as pg.QueryConfig);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    schemaIsCurrent: () => schemaIsCurrent(db),
    async migrate() {
      const client = await connectLongLived();
      try {
        await migrateInFewRoundTrips(client);
      } finally {
        await client.end().catch(() => {});
      }
    },
    async withStartupLock(work) {
      // Held on a connection of its own (waiting for it may take as long as another process's start);
      // the work itself uses the pool.
      const client = await connectLongLived();
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        return await work();
      } finally {
        // Ending the connection releases the lock, also when the work failed.
        await client.end().catch(() => {});
      }
    },
    async runAlone(job, work) {
      const client = await connectLongLived();
      try {
        const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [`rp:${job}`]);
        if (!rows[0]?.locked) return false;
        await work();
        return true;
      } finally {
        await client.end().catch(() => {});
      }
    },
    listen: listenOn,
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((client) => client.end().catch(() => {})));
      await pool.end();
    },
  };
}
