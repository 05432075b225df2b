import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { acquireDirectoryLock, type DirectoryLock } from './lock.ts';
import * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query API; inside a transaction use only this handle. */
export type DatabaseOrTransaction = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface DatabaseHandle {
  db: Database;
  kind: 'embedded' | 'postgres';
  /** Resolves once the database answers a query. */
  ping(): Promise<void>;
  migrate(): Promise<void>;
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
  { kind: 'postgres'; url: string } | { kind: 'embedded'; dataDir: string; purpose: string } | { kind: 'memory'; loadDataDir?: Blob };

// The advisory lock key of the start-up work, the same in every process of the site ('rp-start').
const STARTUP_LOCK_KEY = 0x72702d7374617274n.toString();

export function embeddedDataPath(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

export async function openDatabase(location: DatabaseLocation): Promise<DatabaseHandle> {
  if (location.kind === 'postgres') return openPostgres(location.url);
  let lock: DirectoryLock | undefined;
  let client: PGlite;
  if (location.kind === 'embedded') {
    lock = acquireDirectoryLock(location.dataDir, location.purpose);
    try {
      client = await PGlite.create(embeddedDataPath(location.dataDir));
    } catch (error) {
      lock.release();
      throw error;
    }
  } else {
    client = await PGlite.create(location.loadDataDir ? { loadDataDir: location.loadDataDir } : {});
  }
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  let closed = false;
  return {
    db: db as unknown as Database,
    kind: 'embedded',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    // The directory lock already makes this process the only one.
    withStartupLock: (work) => work(),
    runAlone: async (_job, work) => {
      await work();
      return true;
    },
    dumpDataDir: () => client.dumpDataDir('gzip') as Promise<Blob>,
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

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  let closed = false;
  const listeners = new Set<pg.Client>();

  /** A connection that only listens; when it drops, another takes its place a second later, until stopped. */
  async function listenOn(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let stopped = false;
    let current: pg.Client | undefined;
    const connect = async (): Promise<void> => {
      const client = new pg.Client({ connectionString: url });
      current = client;
      listeners.add(client);
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      client.once('error', () => {
        listeners.delete(client);
        void client.end().catch(() => {});
        if (!stopped && !closed) setTimeout(() => void connect().catch(() => {}), 1000).unref();
      });
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    };
    await connect();
    return async () => {
      stopped = true;
      if (current) listeners.delete(current);
      await current?.end().catch(() => {});
    };
  }

  return {
    db: db as unknown as Database,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    async withStartupLock(work) {
      // Held on one connection of the pool; the work itself may use any other.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        try {
          return await work();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    async runAlone(job, work) {
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [`rp:${job}`]);
        if (!rows[0]?.locked) return false;
        try {
          await work();
          return true;
        } finally {
          await client.query('select pg_advisory_unlock(hashtext($1))', [`rp:${job}`]);
        }
      } finally {
        client.release();
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
