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
  close(): Promise<void>;
  /** Embedded only: a gzip tarball of the data directory, restorable with `loadDataDir`. */
  dumpDataDir?(): Promise<Blob>;
}

export type DatabaseLocation =
  { kind: 'postgres'; url: string } | { kind: 'embedded'; dataDir: string; purpose: string } | { kind: 'memory'; loadDataDir?: Blob };

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
    dumpDataDir: () => client.dumpDataDir('gzip') as Promise<Blob>,
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
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
