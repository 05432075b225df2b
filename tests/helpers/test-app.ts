import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Tier } from '../../common/tiers.ts';
import type { SignedInMember, SignedInStaff, Viewer } from '../../common/viewer.ts';
import { openDatabase, type Database, type DatabaseHandle } from '../../db/client.ts';
import { members, staffAccounts } from '../../db/schema.ts';
import { seedDemoCatalogue } from '../../db/seed/seed.ts';
import { buildApp } from '../../server/app.ts';
import type { MailWorkerTiming } from '../../server/mail/mail-worker.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { LocalDiskStorage, type FileStorage } from '../../server/files/storage.ts';
import { hashPassword } from '../../server/sessions/passwords.ts';
import { withDatabase } from '../setup/postgres-template.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  database: DatabaseHandle;
  config: Config;
  dataDir: string;
  /** Stops this server process and starts a new one on the same database and files (a restart). */
  restart(): Promise<void>;
  /** A second server on the same database and files, as another process would be (closed with this one). */
  anotherServer(): Promise<FastifyInstance>;
  /** Log lines written by the server, when created with `captureLogs`. */
  logs: string[];
  /** A new member of this tier with a live session; returns its Bearer token. */
  loginAs(tier: Tier, details?: { name?: string; email?: string; password?: string }): Promise<MemberLogin>;
  /**
   * The viewer a service sees for the request that carries this token, read from the session as the
   * server reads it (so a change to the account since sign-in shows, as it would at the next request).
   */
  viewerOf(token: string, address?: string): Promise<Viewer>;
  /** The viewer a service sees for a visitor (service tests call services in process, without HTTP). */
  asVisitor(address?: string): Viewer;
  /** A new member of this tier, signed in, as the viewer a service sees. */
  asMember(tier: Tier, details?: { name?: string; email?: string; suspended?: boolean }): Promise<Viewer & { member: SignedInMember }>;
  /** A new staff account, signed in, as the viewer a service sees. */
  asStaff(role?: 'owner' | 'editor'): Promise<Viewer & { staff: SignedInStaff }>;
  /** A new staff account with a live session. */
  loginAsStaff(details?: {
    email?: string;
    password?: string;
    role?: 'owner' | 'editor';
  }): Promise<{ token: string; email: string; password: string; id: string }>;
  close(): Promise<void>;
}

export interface MemberLogin {
  token: string;
  memberId: string;
  email: string;
  password: string;
  name: string;
  /** `{ authorization: 'Bearer ...' }` for app.inject. */
  headers: { authorization: string };
}

let counter = 0;
export const uniqueEmail = (prefix = 'member') =>
  `${prefix}-${process.pid}-${Date.now()}-${++counter}-${randomBytes(3).toString('hex')}@example.com`;

// One embedded database per test worker (the api lane runs its files one after another in each
// worker), emptied when the next file takes it; a second app inside one file gets its own.
let workerDatabase: Promise<DatabaseHandle> | undefined;
let workerDatabaseInUse = false;

async function emptyDatabase(handle: DatabaseHandle): Promise<void> {
  const tables = (await handle.db.execute(sql`select tablename from pg_tables where schemaname = 'public'`)) as unknown as {
    rows: { tablename: string }[];
  };
  const names = tables.rows.map((row) => `"${row.tablename}"`).join(', ');
  if (names) await handle.db.execute(sql.raw(`truncate table ${names} restart identity cascade`));
}

// A migrated empty embedded database, made once per worker: every other one starts as a copy of it
// (a second of unpacking instead of a cluster created and every migration run, several seconds).
let migratedCopy: Promise<Blob> | undefined;

async function migratedMemoryDatabase(): Promise<DatabaseHandle> {
  migratedCopy ??= (async () => {
    const first = await openDatabase({ kind: 'memory' });
    try {
      await first.migrate();
      const dump = Buffer.from(await (await first.dumpDataDir!()).arrayBuffer());
      return new Blob([new Uint8Array(zlib.gunzipSync(dump))], { type: 'application/x-tar' });
    } finally {
      await first.close();
    }
  })();
  const handle = await openDatabase({ kind: 'memory', loadDataDir: await migratedCopy });
  await handle.migrate();
  return handle;
}

/** A clean database for one app: the worker's embedded one, or a copy of the migrated PostgreSQL template. */
async function openTestDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') {
    if (workerDatabaseInUse) {
      const handle = await migratedMemoryDatabase();
      return { handle, drop: () => handle.close() };
    }
    workerDatabaseInUse = true;
    workerDatabase ??= migratedMemoryDatabase();
    const handle = await workerDatabase;
    await emptyDatabase(handle);
    // The app closes its handle; the worker keeps the database for the next file.
    const borrowed: DatabaseHandle = { ...handle, close: async () => {} };
    return {
      handle: borrowed,
      drop: async () => {
        workerDatabaseInUse = false;
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const name = `rp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ kind: 'postgres', url: withDatabase(url, name) });
  return {
    handle,
    drop: async () => {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export async function createTestApp(
  options: {
    seed?: boolean;
    env?: Record<string, string>;
    storage?: (dataDir: string) => FileStorage;
    captureLogs?: boolean;
    /** Mail worker waits, short in tests that watch retries. */
    mailTiming?: Partial<MailWorkerTiming>;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-test-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...options.env });
  const { handle, drop } = await openTestDatabase();
  const storage = options.storage?.(dataDir) ?? new LocalDiskStorage(path.join(dataDir, 'uploads'));
  if (options.seed !== false) await seedDemoCatalogue(handle.db, storage);
  // With `captureLogs`, every log line the server writes is kept in `logs` (as JSON text).
  const logs: string[] = [];
  const logger = options.captureLogs ? { level: 'info', stream: { write: (line: string) => void logs.push(line) } } : false;
  const start = async () => {
    // The minute job's lifecycle mails (a welcome to every new member) would land among the mails a
    // test counts; tests/api/lifecycle-mail.test.ts and the others that need them run the step themselves.
    const started = await buildApp({
      config,
      database: handle,
      storage,
      pages: false,
      logger,
      mailTiming: options.mailTiming,
      lifecycleMail: false,
    });
    await started.ready();
    // As a server process does before it says it is ready: Redis connected, Stripe's prices loaded.
    await started.startup.finished;
    return started;
  };
  const app = await start();
  const others: FastifyInstance[] = [];

  const testApp: TestApp = {
    app,
    db: handle.db,
    database: handle,
    config,
    dataDir,
    logs,
    async loginAs(tier, details = {}) {
      const email = details.email ?? uniqueEmail(tier);
      const password = details.password ?? 'correct horse battery';
      const name = details.name ?? `Test ${tier} member`;
      const [member] = await handle.db
        .insert(members)
        .values({
          name,
          email,
          passwordHash: await hashPassword(password),
          membershipTier: tier,
          complimentaryTier: tier === 'free' ? null : tier,
        })
        .returning({ id: members.id });
      const { token } = await testApp.app.sessions.create({ kind: 'member', memberId: member!.id });
      return { token, memberId: member!.id, email, password, name, headers: { authorization: `Bearer ${token}` } };
    },
    async loginAsStaff(details = {}) {
      const email = details.email ?? uniqueEmail('staff');
      const password = details.password ?? 'staff password 123';
      const [staff] = await handle.db
        .insert(staffAccounts)
        .values({ email, passwordHash: await hashPassword(password), role: details.role ?? 'owner' })
        .returning({ id: staffAccounts.id });
      const { token } = await testApp.app.sessions.create({ kind: 'staff', staffId: staff!.id });
      return { token, email, password, id: staff!.id };
    },
    asVisitor(address = '10.0.0.1') {
      return { member: null, staff: null, client: { address, userAgent: 'service test' } };
    },
    async viewerOf(token, address = '10.0.0.4') {
      const resolved = await testApp.app.sessions.resolve(token);
      if (!resolved) throw new Error('The session did not resolve');
      const client = { address, userAgent: 'service test' };
      return resolved.kind === 'member'
        ? { member: { ...resolved.member, sessionId: resolved.sessionId }, staff: null, client }
        : { member: null, staff: { ...resolved.staff, sessionId: resolved.sessionId }, client };
    },
    async asMember(tier, details = {}) {
      const login = await testApp.loginAs(tier, details);
      if (details.suspended)
        await handle.db.update(members).set({ communitySuspendedAt: new Date() }).where(eq(members.id, login.memberId));
      const viewer = await testApp.viewerOf(login.token, '10.0.0.2');
      if (!viewer.member) throw new Error('The member session did not resolve');
      return { ...viewer, member: viewer.member };
    },
    async asStaff(role = 'owner') {
      const login = await testApp.loginAsStaff({ role });
      const viewer = await testApp.viewerOf(login.token, '10.0.0.3');
      if (!viewer.staff) throw new Error('The staff session did not resolve');
      return { ...viewer, staff: viewer.staff };
    },
    async restart() {
      await testApp.app.close();
      testApp.app = await start();
    },
    async anotherServer() {
      const other = await start();
      others.push(other);
      return other;
    },
    async close() {
      await Promise.all(others.map((other) => other.close()));
      await testApp.app.close();
      await handle.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}
