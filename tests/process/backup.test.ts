import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { members, uploadedFiles } from '../../db/schema.ts';
import { loadConfig } from '../../server/config.ts';
import { createStorage } from '../../server/files/create-storage.ts';
import { multipartBody, PDF_BYTES } from '../helpers/multipart.ts';
import { startServerProcess } from '../helpers/server-process.ts';

// `npm run db:backup` and `db:restore` as an operator runs them, against real server processes.
const root = path.resolve(import.meta.dirname, '../..');
const STAFF = { ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'owner password' };
const MEMBER = { name: 'Kept Member', email: 'kept@example.com', password: 'secret12' };

const processEnv = (env: Record<string, string>) => ({ ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', SEED_DEMO: '0', ...env });

function collectOutput(child: ChildProcessByStdio<null, Readable, Readable>): () => string {
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return () => output;
}

/** An npm script as an operator types it; answers its exit code and everything it printed. */
async function npmRun(script: string, args: string[], env: Record<string, string>) {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    cwd: root,
    env: processEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output: output() };
}

/**
 * Temporary folders and server processes that go away when the test ends, in reverse order. The
 * tests run at once (each is mostly waiting on its processes), so each keeps its own list.
 */
function testKit(onTestFinished: (cleanup: () => Promise<void>) => void) {
  const cleanups: (() => unknown)[] = [];
  onTestFinished(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  function tempDir() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-backup-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  /** `node server/main.ts`, API only, once ready; `stop()` sends SIGTERM and answers the exit code. */
  async function startServer(env: Record<string, string>) {
    const server = await startServerProcess({ env: processEnv({ HOST: '127.0.0.1', ...STAFF, ...env }) });
    const stop = async () => {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      return server.exited;
    };
    cleanups.push(stop);
    return { url: server.url, stop };
  }

  return { tempDir, startServer, cleanups };
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** A member signs up and staff upload a public file: what a restored site must still have. */
async function addMemberAndFile(url: string): Promise<string> {
  expect((await postJson(`${url}/api/auth/register`, MEMBER)).status).toBe(201);
  const { token } = (await (
    await postJson(`${url}/api/admin/login`, { email: STAFF.ADMIN_EMAIL, password: STAFF.ADMIN_PASSWORD })
  ).json()) as {
    token: string;
  };
  const body = multipartBody({ folder: 'ebooks', visibility: 'public' }, { name: 'Playbook.pdf', content: PDF_BYTES });
  const upload = await fetch(`${url}/api/admin/upload`, {
    method: 'POST',
    headers: { ...body.headers, authorization: `Bearer ${token}` },
    body: body.payload,
  });
  expect(upload.status).toBe(201);
  const fileUrl = ((await upload.json()) as { url: string }).url;
  expect(Buffer.from(await (await fetch(`${url}${fileUrl}`)).arrayBuffer()).equals(PDF_BYTES)).toBe(true);
  return fileUrl;
}

async function expectMemberAndFile(url: string, fileUrl: string) {
  expect((await postJson(`${url}/api/auth/login`, { email: MEMBER.email, password: MEMBER.password })).status).toBe(200);
  const file = await fetch(`${url}${fileUrl}`);
  expect(file.status).toBe(200);
  expect(Buffer.from(await file.arrayBuffer()).equals(PDF_BYTES)).toBe(true);
}

describe('npm run db:backup and db:restore, embedded database', () => {
  it.concurrent(
    'backs up while the server runs; the archive verifies, a damaged copy does not; restored onto a new data directory, the member signs in and the file opens',
    async ({ onTestFinished }) => {
      const { tempDir, startServer } = testKit(onTestFinished);
      const dataDir = tempDir();
      const server = await startServer({ DATA_DIR: dataDir });
      const fileUrl = await addMemberAndFile(server.url);
      // An upload still being written is left out.
      fs.writeFileSync(path.join(dataDir, 'uploads/ebooks/arriving.pdf.partial'), 'half');

      const archive = path.join(tempDir(), 'site.tar.gz');
      // A member keeps using the site during the backup, over one kept-alive connection: every
      // request is answered, none is dropped (the dump is made off the request path).
      const probes: string[] = [];
      let backingUp = true;
      const prober = (async () => {
        while (backingUp) {
          probes.push(
            await fetch(`${server.url}/api/courses`).then(
              async (response) => `${response.status}${(await response.arrayBuffer()).byteLength > 0 ? '' : ' empty'}`,
              (error: unknown) => `error ${(error as Error).cause ?? (error as Error).message}`,
            ),
          );
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const backup = await npmRun('db:backup', [archive], { DATA_DIR: dataDir });
      backingUp = false;
      await prober;
      expect(backup.code, backup.output).toBe(0);
      expect(probes.length).toBeGreaterThan(0);
      expect(probes.filter((probe) => probe !== '200')).toEqual([]);
      expect(backup.output).toContain('1 members, 1 uploaded files');
      expect(backup.output).toContain('1 files');
      expect((await fetch(`${server.url}/healthz`)).ok).toBe(true);

      const verified = await npmRun('db:backup', ['--verify', archive], {});
      expect(verified.code, verified.output).toBe(0);
      expect(verified.output).toContain(`${archive} is a good backup`);
      expect(verified.output).toContain('1 members, 1 uploaded files');
      const damaged = path.join(tempDir(), 'damaged.tar.gz');
      fs.writeFileSync(damaged, fs.readFileSync(archive).subarray(0, Math.floor(fs.statSync(archive).size / 2)));
      const refused = await npmRun('db:backup', ['--verify', damaged], {});
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`${damaged} is damaged or not a backup archive`);

      expect(await server.stop()).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'control.sock'))).toBe(false);
      const newDataDir = tempDir();
      const restore = await npmRun('db:restore', [archive], { DATA_DIR: newDataDir });
      expect(restore.code, restore.output).toBe(0);
      expect(restore.output).toContain('1 members, 1 uploaded files');
      const again = await startServer({ DATA_DIR: newDataDir });
      await expectMemberAndFile(again.url, fileUrl);

      // Never over a running server.
      const overRunning = await npmRun('db:restore', [archive], { DATA_DIR: newDataDir });
      expect(overRunning.code).toBe(1);
      expect(overRunning.output).toContain('in use by another process');
    },
    180_000,
  );

  it.concurrent(
    'with no server running, opens the database itself; files in a bucket only with --include-files, restored into the new bucket; a first-version backup still restores',
    async ({ onTestFinished }) => {
      const { tempDir, cleanups } = testKit(onTestFinished);
      const s3 = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory: tempDir(),
        configureBuckets: [
          { name: 'old-site', configs: [] },
          { name: 'new-site', configs: [] },
        ],
      });
      const { port } = (await s3.run()) as { port: number };
      cleanups.push(() => s3.close());
      const s3Env = (bucket: string) => ({
        S3_BUCKET: bucket,
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_FORCE_PATH_STYLE: '1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      });
      const dataDir = tempDir();
      const database = await openDatabase({ kind: 'embedded', dataDir, purpose: 'test' });
      await database.migrate();
      await database.db.insert(members).values({ name: 'Dana', email: 'dana@example.com', passwordHash: 'x' });
      await database.db.insert(uploadedFiles).values({
        filename: 'Playbook.pdf',
        folder: 'ebooks',
        storageKey: 'ebooks/playbook.pdf',
        contentType: 'application/pdf',
        sizeBytes: PDF_BYTES.length,
      });
      const firstVersionBackup = path.join(tempDir(), 'old.tar.gz');
      fs.writeFileSync(firstVersionBackup, Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
      await database.close();
      await createStorage(loadConfig(s3Env('old-site'))).put('ebooks/playbook.pdf', PDF_BYTES, 'application/pdf');

      const withoutFiles = await npmRun('db:backup', [], { DATA_DIR: dataDir, ...s3Env('old-site') });
      expect(withoutFiles.code, withoutFiles.output).toBe(0);
      expect(withoutFiles.output).toContain('The files in the bucket old-site are NOT in this backup');
      expect(fs.readdirSync(path.join(dataDir, 'backups'))).toEqual([expect.stringMatching(/^backup-\d{8}T\d{6}Z\.tar\.gz$/)]);

      const archive = path.join(tempDir(), 'with-files.tar.gz');
      const backup = await npmRun('db:backup', ['--include-files', archive], { DATA_DIR: dataDir, ...s3Env('old-site') });
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toContain('1 files');
      const restore = await npmRun('db:restore', [archive], { DATA_DIR: tempDir(), ...s3Env('new-site') });
      expect(restore.code, restore.output).toBe(0);
      expect(restore.output).toContain('1 uploaded to the bucket new-site');
      const copy = await createStorage(loadConfig(s3Env('new-site'))).get('ebooks/playbook.pdf');
      expect(Buffer.concat(await copy!.toArray()).equals(PDF_BYTES)).toBe(true);

      const restoredDir = tempDir();
      const fromFirstVersion = await npmRun('db:restore', [firstVersionBackup], { DATA_DIR: restoredDir });
      expect(fromFirstVersion.code, fromFirstVersion.output).toBe(0);
      expect(fromFirstVersion.output).toContain('1 members, 1 uploaded files');
      expect(fromFirstVersion.output).toContain('an old backup: database only');
    },
    180_000,
  );
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('npm run db:backup and db:restore, PostgreSQL', () => {
  it.concurrent(
    'round-trips through pg_dump and pg_restore into a second empty database',
    async ({ onTestFinished }) => {
      const { tempDir, startServer, cleanups } = testKit(onTestFinished);
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      cleanups.push(() => admin.end());
      const freshDatabase = async (label: string) => {
        const name = `rp_backup_${label}_${process.pid}_${Date.now()}`;
        await admin.query(`CREATE DATABASE ${name}`);
        cleanups.push(() => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = `/${name}`;
        return url.toString();
      };

      const env = { DATA_DIR: tempDir(), DATABASE_URL: await freshDatabase('from') };
      const server = await startServer(env);
      const fileUrl = await addMemberAndFile(server.url);
      const archive = path.join(tempDir(), 'site.tar.gz');
      const backup = await npmRun('db:backup', [archive], env);
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toContain('PostgreSQL database');
      await server.stop();
      const verified = await npmRun('db:backup', ['--verify', archive], {});
      expect(verified.code, verified.output).toBe(0);
      expect(verified.output).toContain('1 members, 1 uploaded files');

      const newEnv = { DATA_DIR: tempDir(), DATABASE_URL: await freshDatabase('to') };
      const restore = await npmRun('db:restore', [archive], newEnv);
      expect(restore.code, restore.output).toBe(0);
      expect(restore.output).toContain('1 members, 1 uploaded files');
      const again = await startServer(newEnv);
      await expectMemberAndFile(again.url, fileUrl);

      const refused = await npmRun('db:restore', [archive], newEnv);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('already holds the site');
    },
    180_000,
  );
});
