import { spawn } from 'node:child_process';
import readline from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process.ts';

// Starts the real entry point (`node server/main.ts`) as a separate process, API only: pages need a build.
const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tempDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-main-'));
  dirs.push(dir);
  return dir;
}

/** `node server/main.ts` on any free port, API only; resolves once it is ready, or rejects with what it printed. */
const startServer = (env: Record<string, string>) =>
  startServerProcess({ env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', ...env } });

/**
 * Words in what a process printed that look like a generated secret (a password, a token, a key):
 * 12 or more letters, digits, `-` and `_` mixing lower case, upper case or digits. What is known not
 * to be one is left out first: the `allowed` texts (the setup link's token, the data directory), the
 * machine's name and the request ids (UUIDs) on log lines.
 */
function printedSecrets(output: string, allowed: string[]): string[] {
  let rest = output.replaceAll(os.hostname(), ' ');
  for (const text of allowed) rest = rest.replaceAll(text, ' ');
  rest = rest.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, ' ');
  const words = rest.match(/[A-Za-z0-9_-]{12,}/g) ?? [];
  return words.filter((word) => [/[a-z]/, /[A-Z]/, /[0-9]/].filter((kind) => kind.test(word)).length >= 2);
}

describe('server process', () => {
  it('refuses a bad PORT with a clear message and a non-zero exit', async () => {
    await expect(startServer({ PORT: 'not-a-port', DATA_DIR: tempDataDir() })).rejects.toThrow(
      /exited \(code 1\)[^]*PORT must be a whole number between 0 and 65535/,
    );
  });

  it('prints a one-time link to choose the first staff password (never a password), refuses a second server on the same data, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDataDir();
    // At the info level, as a production log ships it: every line the first start writes is read below.
    // No PUBLIC_URL: the link names the port the server took.
    const first = await startServer({ DATA_DIR: dataDir, ADMIN_EMAIL: '', ADMIN_PASSWORD: '', PUBLIC_URL: '', LOG_LEVEL: 'info' });
    const base = first.url;
    const setup = /First staff account created: admin@realtypocket\.local\. Choose its password within 24 hours at (\S+) /.exec(
      first.output(),
    );
    expect(setup).not.toBeNull();
    expect(first.output()).not.toMatch(/admin@realtypocket\.local \/ /);
    const token = new URL(setup![1]!).searchParams.get('token')!;
    expect(setup![1]).toBe(`${base}/admin/reset-password?token=${token}`);
    const post = (url: string, body: object) =>
      fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    // Not even with the link's token as a password: it is no password.
    expect((await post('/api/admin/login', { email: 'admin@realtypocket.local', password: token })).status).toBe(401);
    // Nobody can sign in until the owner chooses a password through the link, which then works no more.
    expect((await post('/api/admin/password-reset/confirm', { token, password: 'owner chose this' })).status).toBe(200);
    expect((await post('/api/admin/password-reset/confirm', { token, password: 'someone else' })).status).toBe(400);
    expect((await post('/api/admin/login', { email: 'admin@realtypocket.local', password: 'owner chose this' })).status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, 'database.lock'))).toBe(true);

    await expect(startServer({ DATA_DIR: dataDir })).rejects.toThrow(`in use by another process (PID ${first.child.pid}`);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'database.lock'))).toBe(false);
    // Everything the first start printed, to its end: no password, and no secret but the link's token.
    expect(first.output()).not.toMatch(/password["']?\s*(:|=|is\b|was\b)/i);
    expect(printedSecrets(first.output(), [token, dataDir])).toEqual([]);

    // A restart on the same data keeps the staff account and prints no new link.
    const again = await startServer({ DATA_DIR: dataDir });
    const courses = (await (await fetch(`${again.url}/api/courses`)).json()) as unknown[];
    expect(courses.length).toBeGreaterThanOrEqual(12);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(again.output()).not.toContain('First staff account created');
    expect(again.output()).not.toMatch(/password["']?\s*(:|=|is\b|was\b)/i);
    expect(printedSecrets(again.output(), [dataDir])).toEqual([]);
  }, 120_000);
});

/** The origin in the line a server writes once it is ready (at the info level), read as it is printed. */
function startedAt(lines: NodeJS.ReadableStream, exited: Promise<number | null>): Promise<string> {
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`npm start exited (${code}) before the server was ready`)));
    readline.createInterface({ input: lines }).on('line', (line) => {
      const entry = /^\{/.test(line) ? (JSON.parse(line) as { url?: string; startMs?: object }) : {};
      if (entry.startMs && entry.url) resolve(entry.url);
    });
  });
}

describe('npm start under a process manager', () => {
  it('passes SIGTERM on to the server, which stops cleanly and releases the database', async () => {
    const dataDir = tempDataDir();
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: root,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        PUBLIC_URL: '',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'info',
        SEED_DEMO: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    const url = await startedAt(npm.stdout, exited);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, 'database.lock'))).toBe(true);
    // The process manager signals npm, the process it started.
    npm.kill('SIGTERM');
    await exited;
    await expect.poll(() => fs.existsSync(path.join(dataDir, 'database.lock')), { timeout: 15_000 }).toBe(false);
    await expect
      .poll(
        () =>
          fetch(`${url}/healthz`).then(
            () => 'up',
            () => 'down',
          ),
        { timeout: 15_000 },
      )
      .toBe('down');
  }, 60_000);
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('server process on PostgreSQL', () => {
  it('starts on an empty PostgreSQL database with the demo catalogue and keeps its data across a restart', async () => {
    const { default: pg } = await import('pg');
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `rp_start_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      const env = {
        DATA_DIR: tempDataDir(),
        DATABASE_URL: url.toString(),
        ADMIN_EMAIL: 'owner@example.com',
        ADMIN_PASSWORD: 'owner password',
      };
      const first = await startServer(env);
      const courses = (await (await fetch(`${first.url}/api/courses`)).json()) as unknown[];
      expect(courses.length).toBeGreaterThanOrEqual(12);
      const signup = await fetch(`${first.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Kept Member', email: 'kept@example.com', password: 'secret12' }),
      });
      expect(signup.status).toBe(201);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      const second = await startServer(env);
      expect(((await (await fetch(`${second.url}/api/courses`)).json()) as unknown[]).length).toBe(courses.length);
      const login = await fetch(`${second.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'kept@example.com', password: 'secret12' }),
      });
      expect(login.status).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 120_000);

  it('starts three servers at once on one empty database: all come up, the catalogue is loaded once', async () => {
    const { default: pg } = await import('pg');
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `rp_race_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const servers: Awaited<ReturnType<typeof startServer>>[] = [];
    try {
      const starts = [1, 2, 3].map(() =>
        startServer({
          DATA_DIR: tempDataDir(),
          DATABASE_URL: url.toString(),
          ADMIN_EMAIL: 'owner@example.com',
          ADMIN_PASSWORD: 'owner password',
        }),
      );
      // Every one must come up: a start that failed rejects with what that server printed.
      const started = await Promise.allSettled(starts);
      for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
      expect(started.map((result) => (result.status === 'fulfilled' ? 'ready' : String(result.reason)))).toEqual([
        'ready',
        'ready',
        'ready',
      ]);
      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const courses = await check.query('select count(*)::int as n from courses');
      const staff = await check.query('select count(*)::int as n from staff_accounts');
      await check.end();
      const listed = (await (await fetch(`${servers[0]!.url}/api/courses`)).json()) as unknown[];
      expect(courses.rows[0].n).toBe(listed.length);
      expect(staff.rows[0].n).toBe(1);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 120_000);
});
