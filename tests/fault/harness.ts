import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { DATABASE_UNAVAILABLE, SHUTTING_DOWN } from '../../common/errors.ts';
import { freePort } from '../helpers/free-port.ts';
import { startServerProcess, type ServerProcess as StartedServer } from '../helpers/server-process.ts';

// The fault lane's harness: a throwaway PostgreSQL cluster and Redis that tests restart, freeze and
// stop; the real server entry point as child processes; and a load generator that records every
// answer as a client sees it. Every resource started here is registered, and `cleanupAll()` (each
// test file's afterAll) thaws, stops and deletes them all, whatever happened in the tests.

const root = path.resolve(import.meta.dirname, '../..');
const nodeBinary = path.join(root, 'node_modules/.bin/node');
// Programs the machine provides (PostgreSQL 15 and Redis on PATH), not npm packages.
const programs = { initdb: 'initdb', pgCtl: 'pg_ctl', redis: 'redis-server', getent: 'getent' };
// The server under test: this repository, or another checkout of it (FAULT_SERVER_ROOT, to compare two versions).
const serverRoot = process.env.FAULT_SERVER_ROOT ? path.resolve(process.env.FAULT_SERVER_ROOT) : root;

/**
 * Whether the server under test has a production build of its pages (server/pages/pages.plugin.ts
 * loads build/server/index.js; without it every page answers 503 "not built"). Page views in the
 * load (`startLoad({ pageViews: true })`) only make sense with one: run `npm run build` first.
 */
export function pagesBuilt(): boolean {
  return fs.existsSync(path.join(serverRoot, 'build/server/index.js'));
}

/** Milliseconds on one monotonic clock shared by the load, the probes and the fault timestamps. */
export const now = () => performance.now();
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------
// Cleanup registry

const cleanups = new Map<symbol, { name: string; cleanup: () => Promise<void>; emergency: () => void }>();

function register(name: string, cleanup: () => Promise<void>, emergency: () => void): () => void {
  const key = Symbol(name);
  cleanups.set(key, { name, cleanup, emergency });
  return () => cleanups.delete(key);
}

/** Stops and deletes everything started in this file: servers first, then Redis, then clusters (thawed first). */
export async function cleanupAll(): Promise<void> {
  const entries = [...cleanups.values()].reverse();
  cleanups.clear();
  for (const entry of entries) {
    try {
      await entry.cleanup();
    } catch (error) {
      console.warn(`cleanup of ${entry.name} failed:`, error);
    }
  }
}

// Last resort if the worker exits without afterAll (a crash): never leave a cluster frozen or running.
process.once('exit', () => {
  for (const entry of [...cleanups.values()].reverse()) {
    try {
      entry.emergency();
    } catch {
      // nothing more to do while exiting
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Commands, run as the postgres user when we are root (initdb and postgres refuse root)

interface Owner {
  uid: number;
  gid: number;
}

function clusterOwner(): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const result = spawnSync(programs.getent, ['passwd', 'postgres'], { encoding: 'utf8' });
  const fields = result.stdout.trim().split(':');
  if (result.status !== 0 || fields.length < 4) throw new Error('running as root, but there is no postgres user to run the cluster');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

interface CommandResult {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], options: { cwd: string; owner: Owner | undefined; env?: NodeJS.ProcessEnv }) {
  return new Promise<CommandResult>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, LC_ALL: 'C', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.owner ? { uid: options.owner.uid, gid: options.owner.gid } : {}),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

async function mustRun(command: string, args: string[], options: Parameters<typeof run>[2]): Promise<void> {
  const result = await run(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.code}):\n${result.output}`);
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

export interface PostgresCluster {
  url: string;
  port: number;
  dataDir: string;
  /** `pg_ctl restart -m mode -w`: resolves once PostgreSQL accepts connections again (`readyAt`). */
  restart(mode?: 'smart' | 'fast' | 'immediate'): Promise<{ requestedAt: number; readyAt: number }>;
  stop(mode?: 'smart' | 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP the postmaster and all its children: connections open, nothing answers. */
  freeze(): Promise<number[]>;
  /** SIGCONT everything frozen (and every current child, to be sure). */
  thaw(): Promise<void>;
  frozen(): boolean;
  /** One query over a fresh connection (so it works across restarts). */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  log(): string;
  destroy(): Promise<void>;
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const owner = clusterOwner();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-fault-pg-'));
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  // PostgreSQL takes no port 0: a free one is probed, and another tried if it was taken meanwhile.
  let port = await freePort();
  const runOptions = { cwd: dir, owner };
  // fsync off: a throwaway cluster on a small machine; every restart here is a clean shutdown, so no commit depends on it.
  const optionsFor = (chosen: number) => `-p ${chosen} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  let serverOptions = optionsFor(port);
  let frozenPids: number[] = [];

  const postmasterPid = (): number | undefined => {
    try {
      const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  };
  const clusterPids = () => {
    const postmaster = postmasterPid();
    return postmaster ? [postmaster, ...childrenOf(postmaster)] : [];
  };
  const signalAll = (pids: number[], signal: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
  };
  const thawNow = () => {
    signalAll([...frozenPids, ...clusterPids()], 'SIGCONT');
    frozenPids = [];
  };

  await mustRun(programs.initdb, ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'], runOptions);
  const start = () => mustRun(programs.pgCtl, ['-D', dataDir, '-o', serverOptions, '-l', logFile, '-w', '-t', '60', 'start'], runOptions);
  const stop = (mode: 'smart' | 'fast' | 'immediate' = 'fast') =>
    mustRun(programs.pgCtl, ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop'], runOptions);
  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      break;
    } catch (error) {
      const taken = /could not (bind|create listen socket)|Address already in use/i.test(
        fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '',
      );
      if (!taken || attempt >= 5) throw error;
      fs.rmSync(logFile, { force: true });
      port = await freePort();
      serverOptions = optionsFor(port);
    }
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  const destroy = async () => {
    thawNow();
    if (postmasterPid()) {
      const result = await run(programs.pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', '-t', '20', 'stop'], runOptions);
      if (result.code !== 0) signalAll(clusterPids(), 'SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const unregister = register(`postgres on ${port}`, destroy, () => {
    thawNow();
    spawnSync(programs.pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', '-t', '10', 'stop'], {
      cwd: dir,
      stdio: 'ignore',
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  return {
    url,
    port,
    dataDir,
    async restart(mode = 'fast') {
      const requestedAt = now();
      await mustRun(
        programs.pgCtl,
        ['-D', dataDir, '-m', mode, '-o', serverOptions, '-l', logFile, '-w', '-t', '60', 'restart'],
        runOptions,
      );
      return { requestedAt, readyAt: now() };
    },
    stop,
    start,
    async freeze() {
      const postmaster = postmasterPid();
      if (!postmaster) throw new Error('the cluster is not running');
      // The postmaster first, so it starts no new child while we stop the others.
      signalAll([postmaster], 'SIGSTOP');
      const children = childrenOf(postmaster);
      signalAll(children, 'SIGSTOP');
      frozenPids = [postmaster, ...children];
      return frozenPids;
    },
    async thaw() {
      thawNow();
    },
    frozen: () => frozenPids.length > 0,
    async query<T extends pg.QueryResultRow>(text: string, values?: unknown[]) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        return (await client.query<T>(text, values)).rows;
      } finally {
        await client.end().catch(() => {});
      }
    },
    log: () => {
      try {
        return fs.readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    },
    async destroy() {
      unregister();
      await destroy();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Redis

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Whether it answers PING right now. */
  answers(): Promise<boolean>;
  /** How many keys it holds (DBSIZE): above 0 once a server wrote to it; undefined when it does not answer. */
  keyCount(): Promise<number | undefined>;
  destroy(): Promise<void>;
}

/** One inline command (PING, DBSIZE) over a fresh connection; its raw reply, or undefined. */
function redisCommand(port: number, command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const done = (reply: string | undefined) => {
      socket.destroy();
      resolve(reply);
    };
    socket.setTimeout(1000, () => done(undefined));
    socket.once('error', () => done(undefined));
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.once('data', (chunk: Buffer) => done(chunk.toString()));
  });
}

const redisPing = async (port: number) => (await redisCommand(port, 'PING'))?.startsWith('+PONG') ?? false;

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function startRedis(): Promise<RedisServer> {
  // redis-server's port 0 means no TCP at all: a free port is probed, and another tried if it was taken meanwhile.
  let port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    output = '';
    const started = spawn(
      programs.redis,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', os.tmpdir()],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // It says when it is ready, or exits saying why: no deadline to guess.
    await new Promise<void>((resolve, reject) => {
      const onData = () => {
        if (!output.includes('Ready to accept connections')) return;
        started.off('exit', onExit);
        resolve();
      };
      const onExit = (code: number | null) => {
        started.stdout?.off('data', onData);
        reject(new Error(`redis-server exited (${code}):\n${output}`));
      };
      started.stdout?.on('data', onData);
      started.once('exit', onExit);
    });
  };
  const stop = async () => {
    if (child) await stopChild(child);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      break;
    } catch (error) {
      if (!output.includes('Address already in use') || attempt >= 5) throw error;
      port = await freePort();
    }
  }
  const unregister = register(`redis on ${port}`, stop, () => child?.kill('SIGKILL'));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    answers: () => redisPing(port),
    async keyCount() {
      const reply = await redisCommand(port, 'DBSIZE');
      return reply?.startsWith(':') ? Number(reply.slice(1)) : undefined;
    },
    async destroy() {
      unregister();
      await stop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Server processes

/** The first staff account every server process starts with (ADMIN_EMAIL, ADMIN_PASSWORD): an owner. */
export const OWNER = { email: 'owner@example.com', password: 'owner-password-1' } as const;

export interface ServerProcess {
  name: string;
  url: string;
  port: number;
  pid: number;
  /** The exit code (null when a signal ended it, see `howExited()`). */
  exited: Promise<number | null>;
  hasExited(): boolean;
  /** How it ended, once it has: `code 1`, `signal SIGKILL`. */
  howExited(): string;
  kill(signal?: NodeJS.Signals): boolean;
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export async function startServer(options: {
  /** How summaries name it; 'A' unless given. */
  name?: string;
  databaseUrl?: string;
  redisUrl?: string;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const name = options.name ?? 'A';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-fault-data-'));
  let started: StartedServer;
  try {
    started = await startServerProcess({
      command: nodeBinary,
      cwd: serverRoot,
      // A clean environment: nothing of vitest's (NODE_ENV=test, VITEST...) reaches the server.
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TZ: process.env.TZ,
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: options.databaseUrl ?? '',
        REDIS_URL: options.redisUrl ?? '',
        ADMIN_EMAIL: OWNER.email,
        ADMIN_PASSWORD: OWNER.password,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        // The load comes from one machine; it names a client address per member (X-Forwarded-For), as a
        // balancer would, so the per-address sign-in and sign-up limits see many clients.
        TRUST_PROXY: '127.0.0.1',
        ...options.env,
      },
    });
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`server ${name} did not start: ${(error as Error).message}`, { cause: error });
  }
  const { child, exited, port, url, output } = started;
  let done = child.exitCode !== null || child.signalCode !== null;
  void exited.then(() => (done = true));
  const stop = async (graceMs = 20_000) => stopChild(child, 'SIGTERM', graceMs);
  register(
    `server ${name}`,
    async () => {
      await stopChild(child, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    () => {
      child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  );
  return {
    name,
    url,
    port,
    pid: child.pid ?? -1,
    exited,
    hasExited: () => done,
    howExited: () => (child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`),
    kill: (signal = 'SIGTERM') => child.kill(signal),
    output,
    stop,
  };
}

/** The server's warnings and errors, grouped: `count× level message (error)`, most frequent first. */
export function summarizeOutput(output: string, limit = 12): string {
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.trim()) continue;
    let key = line.slice(0, 200);
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { type?: string; message?: string; code?: string } };
      const level = ({ 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' } as Record<number, string>)[entry.level ?? 0] ?? entry.level;
      const err = entry.err ? ` (${[entry.err.type, entry.err.code, entry.err.message].filter(Boolean).join(' ')})` : '';
      key = `${level} ${entry.msg ?? ''}${err}`.slice(0, 240);
    } catch {
      // a plain line (console output)
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const lines = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);
  return lines.length === 0 ? '    (no output)' : lines.map(([key, count]) => `    ${count}× ${key}`).join('\n');
}

// ---------------------------------------------------------------------------------------------
// Requests and answers

export interface Outcome {
  /** Which server process answered (its name). */
  process: string;
  method: string;
  /** The route, with ids as :id (for grouping). */
  route: string;
  path: string;
  /** When the client was asked to send it (fetch called). */
  startedAt: number;
  /**
   * When it was written to a connection (its headers, as fetch sent them); undefined when it never
   * was (the connection was refused). A fetch called just before a fault may only open its connection
   * and send after it: this, not `startedAt`, tells whether the server could have had it before.
   */
  sentAt?: number;
  /** When the answer (or the failure) arrived. */
  at: number;
  durationMs: number;
  status?: number;
  detail?: string;
  retryAfter?: string | null;
  requestId?: string | null;
  /** The answer's ETag, when it had one (a visitor's kept page carries the one it was kept with). */
  etag?: string;
  /** The answer said `Connection: close` (a draining server says so on every answer). */
  connectionClose?: boolean;
  /** Why no answer arrived: 'timeout', or the network error's code (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET...). */
  error?: string;
  /** The parsed JSON body, when there was one. */
  json?: unknown;
}

export interface Target {
  name: string;
  url: string;
}

// When each request of `call()` was written to its connection, by the id it carries (X-Fault-Call):
// fetch (undici) publishes each request's headers as it sends them.
const FAULT_CALL_HEADER = 'x-fault-call';
const sentAtByCall = new Map<string, number | undefined>();
let callCounter = 0;
diagnostics.subscribe('undici:client:sendHeaders', (message) => {
  const headers = (message as { request?: { headers?: unknown } }).request?.headers;
  if (!Array.isArray(headers)) return;
  const index = headers.findIndex((name, i) => i % 2 === 0 && String(name).toLowerCase() === FAULT_CALL_HEADER);
  const id = index >= 0 ? String(headers[index + 1]) : undefined;
  // The first write counts, should the request be sent again on another connection.
  if (id && sentAtByCall.has(id) && sentAtByCall.get(id) === undefined) sentAtByCall.set(id, now());
});

let addressCounter = 0;
/** A fresh client address (X-Forwarded-For), for requests that must not share a per-address limit. */
export function freshAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

export async function call(
  target: Target,
  method: string,
  urlPath: string,
  options: {
    token?: string;
    body?: unknown;
    address?: string;
    timeoutMs?: number;
    headers?: Record<string, string>;
    route?: string;
  } = {},
): Promise<Outcome> {
  const id = String(++callCounter);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers, [FAULT_CALL_HEADER]: id };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.address) headers['x-forwarded-for'] = options.address;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const startedAt = now();
  const base = { process: target.name, method, route: options.route ?? urlPath, path: urlPath, startedAt };
  sentAtByCall.set(id, undefined);
  const sent = () => {
    const sentAt = sentAtByCall.get(id);
    sentAtByCall.delete(id);
    return sentAt === undefined ? {} : { sentAt };
  };
  try {
    const answer = await fetch(`${target.url}${urlPath}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 8000),
    });
    const text = await answer.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const detail = json && typeof json === 'object' && 'detail' in json ? String((json as { detail: unknown }).detail) : undefined;
    const at = now();
    const etag = answer.headers.get('etag');
    return {
      ...base,
      ...sent(),
      at,
      durationMs: at - startedAt,
      connectionClose: answer.headers.get('connection')?.toLowerCase() === 'close',
      status: answer.status,
      detail,
      retryAfter: answer.headers.get('retry-after'),
      requestId: answer.headers.get('x-request-id'),
      ...(etag ? { etag } : {}),
      json,
    };
  } catch (error) {
    const at = now();
    return { ...base, ...sent(), at, durationMs: at - startedAt, error: failureCode(error) };
  }
}

function failureCode(error: unknown): string {
  const err = error as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string; name?: string } };
  if (err?.name === 'TimeoutError' || err?.cause?.name === 'TimeoutError') return 'timeout';
  return err?.cause?.code ?? err?.code ?? err?.cause?.message ?? err?.message ?? String(error);
}

export const ok = (outcome: Outcome) => outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;

/** A 503 the way an outage of the database must look: the shared message and a Retry-After. */
export const databaseUnavailable = (outcome: Outcome) =>
  outcome.status === 503 && outcome.detail === DATABASE_UNAVAILABLE && !!outcome.retryAfter;

/**
 * How an answer reads in a summary: `201`, `503 DATABASE_UNAVAILABLE retry-after=5`, `error ECONNRESET`.
 * `grouped` leaves out what differs between answers of one kind (an error's reference).
 */
export function describeOutcome(outcome: Outcome, grouped = false): string {
  if (outcome.error) return `error ${outcome.error}`;
  let detail = '';
  if (outcome.status !== undefined && outcome.status >= 300) {
    if (outcome.detail === DATABASE_UNAVAILABLE) detail = ' DATABASE_UNAVAILABLE';
    else if (outcome.detail === SHUTTING_DOWN) detail = ' SHUTTING_DOWN';
    else if (outcome.detail !== undefined) {
      const text = grouped ? outcome.detail.replace(/\s*\(Reference:[^)]*\)/, '') : outcome.detail;
      detail = ` "${text.slice(0, grouped ? 70 : 110)}"`;
    }
    detail += outcome.retryAfter ? ` retry-after=${outcome.retryAfter}` : ' (no retry-after)';
  }
  return `${outcome.status}${detail}`;
}

/** Counts of answers per process, route and kind of answer, one line each. */
export function summarize(outcomes: Outcome[]): string {
  if (outcomes.length === 0) return '    (no requests)';
  const counts = new Map<string, number>();
  for (const outcome of outcomes) {
    const key = `${outcome.process} ${outcome.method} ${outcome.route} → ${describeOutcome(outcome, true)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([key, count]) => `    ${String(count).padStart(4)}× ${key}`)
    .join('\n');
}

/** Outcomes that are not what `allowed` accepts, one compact line each (for assertion messages). */
export function offenders(outcomes: Outcome[], allowed: (outcome: Outcome) => boolean, t0 = 0): string[] {
  return outcomes
    .filter((outcome) => !allowed(outcome))
    .map(
      (outcome) =>
        `${outcome.process} ${outcome.method} ${outcome.path} → ${describeOutcome(outcome)} after ${Math.round(outcome.durationMs)} ms ` +
        `(sent at +${Math.round(outcome.startedAt - t0)} ms)`,
    );
}

/**
 * Visitors' page views (`isPageView`) answered during an outage (`from` to `to`, by when the answer
 * arrived): how many there were, and those that were not the copy kept before it, that is not a 200
 * with an ETag the same process answered for the same page before the outage began.
 */
export function keptPageOffenders(
  views: Outcome[],
  outages: { from: number; to: number }[],
  t0 = 0,
): { during: number; notKept: string[] } {
  const copy = (view: Outcome) => `${view.process} ${view.path} ${view.etag ?? '-'}`;
  let during = 0;
  const notKept: string[] = [];
  for (const outage of outages) {
    const kept = new Set(views.filter((view) => view.at < outage.from && view.status === 200 && view.etag).map(copy));
    const inOutage = views.filter((view) => view.at >= outage.from && view.at <= outage.to);
    during += inOutage.length;
    for (const view of inOutage.filter((each) => each.status !== 200 || !kept.has(copy(each)))) {
      notKept.push(`${offenders([view], () => false, t0)[0]} (etag ${view.etag ?? 'none'})`);
    }
  }
  return { during, notKept };
}

export function withoutRequestId(outcomes: Outcome[]): string[] {
  return offenders(outcomes, (outcome) => outcome.error !== undefined || UUID.test(outcome.requestId ?? ''));
}

/** Polls until `check` is true, up to `timeoutMs`; resolves to when it first held, or undefined. */
export async function pollUntil(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 200): Promise<number | undefined> {
  const deadline = now() + timeoutMs;
  while (now() < deadline) {
    if (await check()) return now();
    await sleep(intervalMs);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Members

export interface Member {
  name: string;
  email: string;
  password: string;
  token: string;
  /** The client address this member's requests come from. */
  address: string;
  postsLeft: number;
  repliesLeft: number;
}

/** Registers members through the API, then raises them to Bronze directly in the database (a cluster's). */
export async function registerMembers(
  target: Target,
  cluster: PostgresCluster | undefined,
  count: number,
  options: { tier?: 'free' | 'bronze'; label?: string } = {},
): Promise<Member[]> {
  const label = options.label ?? 'member';
  const batch = randomUUID().slice(0, 8);
  const members: Member[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const member = {
        name: `Fault ${label} ${index}`,
        email: `fault-${label}-${batch}-${index}@example.com`,
        password: `fault-password-${index}`,
        address: freshAddress(),
      };
      const answer = await call(target, 'POST', '/api/auth/register', {
        body: { name: member.name, email: member.email, password: member.password },
        address: member.address,
        timeoutMs: 30_000,
      });
      const token = (answer.json as { token?: string } | undefined)?.token;
      if (answer.status !== 201 || !token) throw new Error(`registering ${member.email} answered ${describeOutcome(answer)}`);
      // Four posts and 25 replies each: under the community's 5 posts and 30 replies per member per hour.
      members.push({ ...member, token, postsLeft: 4, repliesLeft: 25 });
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, count) }, worker));
  members.sort((a, b) => (a.email < b.email ? -1 : 1));
  if ((options.tier ?? 'bronze') === 'bronze') {
    if (!cluster) throw new Error('members are raised to Bronze in a PostgreSQL cluster: ask for free members on the embedded database');
    await cluster.query(`update members set membership_tier = 'bronze', complimentary_tier = 'bronze' where email = any($1)`, [
      members.map((member) => member.email),
    ]);
  }
  return members;
}

/** The ids of the free-tier courses, for enrolments any member may make. */
export async function freeCourseIds(target: Target): Promise<string[]> {
  const answer = await call(target, 'GET', '/api/courses');
  const courses = (answer.json ?? []) as { id: string; tier: string }[];
  const ids = courses.filter((course) => course.tier === 'free').map((course) => course.id);
  if (answer.status !== 200 || ids.length === 0)
    throw new Error(`no free course to enrol in: GET /api/courses answered ${describeOutcome(answer)}`);
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Load

type Operation = 'courses' | 'me' | 'login' | 'enrol' | 'post' | 'reply' | 'page';

// No page views unless a test asks for them (`pageViews`): they need a production build.
const DEFAULT_MIX: Record<Operation, number> = { courses: 25, me: 25, login: 6, enrol: 16, post: 8, reply: 20, page: 0 };
/** The weight of page views in the mix when a test asks for them and names none. */
const PAGE_VIEW_WEIGHT = 20;

/** The pages a visitor (no cookie, no token) views in the load: each process keeps one copy of each for everyone. */
const VISITOR_PAGES = ['/', '/courses'] as const;
const PAGE_VIEW_ROUTE = ' (visitor page)';

/** An answer to a visitor's page view of the load. */
export const isPageView = (outcome: Outcome) => outcome.route.endsWith(PAGE_VIEW_ROUTE);

export interface Load {
  outcomes: Outcome[];
  /** Posts and replies answered 201: acknowledged writes that must be in the database afterwards. */
  posts: string[];
  replies: string[];
  /** Stops issuing requests and resolves once every loop's last request ended. */
  stop(): Promise<Outcome[]>;
}

let textCounter = 0;
const uniqueText = (what: string) => `${what} ${++textCounter} ${randomUUID()}`;

/**
 * N concurrent loops per target for `durationMs` (or until stopped), each with its own members
 * (a member's token is only used by one loop, which adopts the fresh token of each sign-in).
 */
export function startLoad(options: {
  targets: Target[];
  loopsPerTarget: number;
  members: Member[];
  courseIds: string[];
  /** Posts replies may go to; the load adds the posts it creates. */
  postIds: string[];
  durationMs?: number;
  thinkMs?: number;
  timeoutMs?: number;
  mix?: Partial<Record<Operation, number>>;
  /**
   * Visitors' page views (GET / and /courses, as HTML, with no cookie or token) in the mix, at
   * `mix.page` or a weight of 20. Off unless asked for: the pages need a production build (`pagesBuilt()`).
   */
  pageViews?: boolean;
  /**
   * Every request asks for `Connection: close`, so each opens a connection of its own (as clients
   * behind a proxy that does not reuse them): a server accepts each before it reads the request.
   */
  freshConnections?: boolean;
}): Load {
  const mix = { ...DEFAULT_MIX, ...(options.pageViews ? { page: PAGE_VIEW_WEIGHT } : {}), ...options.mix };
  if (!options.pageViews) mix.page = 0;
  const loops = options.targets.flatMap((target) => Array.from({ length: options.loopsPerTarget }, () => target));
  if (options.members.length < loops.length) throw new Error(`${loops.length} loops need at least as many members`);
  const outcomes: Outcome[] = [];
  const posts: string[] = [];
  const replies: string[] = [];
  const postIds = options.postIds;
  let stopping = false;
  const deadline = options.durationMs === undefined ? Infinity : now() + options.durationMs;
  const timeoutMs = options.timeoutMs ?? 8000;

  const loop = async (target: Target, members: Member[]) => {
    let turn = 0;
    while (!stopping && now() < deadline) {
      const member = members[turn++ % members.length]!;
      const possible = (Object.keys(mix) as Operation[]).filter(
        (op) =>
          mix[op] > 0 &&
          (op !== 'post' || member.postsLeft > 0) &&
          (op !== 'reply' || (member.repliesLeft > 0 && postIds.length > 0)) &&
          (op !== 'enrol' || options.courseIds.length > 0),
      );
      const total = possible.reduce((sum, op) => sum + mix[op], 0);
      let pick = Math.random() * total;
      const op = possible.find((candidate) => (pick -= mix[candidate]) < 0) ?? 'courses';
      const connection: Record<string, string> = options.freshConnections ? { connection: 'close' } : {};
      const common = { token: member.token, address: member.address, timeoutMs, headers: connection };
      let outcome: Outcome;
      switch (op) {
        case 'courses':
          outcome = await call(target, 'GET', '/api/courses', common);
          break;
        case 'me':
          outcome = await call(target, 'GET', '/api/auth/me', common);
          break;
        case 'login': {
          // A fresh address per sign-in: the per-address limit counts every attempt.
          outcome = await call(target, 'POST', '/api/auth/login', {
            ...common,
            token: undefined,
            address: freshAddress(),
            body: { email: member.email, password: member.password },
          });
          const token = (outcome.json as { token?: string } | undefined)?.token;
          if (outcome.status === 200 && token) member.token = token;
          break;
        }
        case 'enrol': {
          const course = options.courseIds[Math.floor(Math.random() * options.courseIds.length)]!;
          outcome = await call(target, 'POST', `/api/courses/${course}/enrol`, { ...common, route: '/api/courses/:id/enrol' });
          break;
        }
        case 'post': {
          member.postsLeft -= 1;
          outcome = await call(target, 'POST', '/api/community/posts', {
            ...common,
            body: { title: uniqueText('Fault post'), body: uniqueText('What the fault lane wrote') },
          });
          const id = (outcome.json as { id?: string } | undefined)?.id;
          if (outcome.status === 201 && id) {
            posts.push(id);
            postIds.push(id);
          }
          break;
        }
        case 'reply': {
          member.repliesLeft -= 1;
          const post = postIds[Math.floor(Math.random() * postIds.length)]!;
          outcome = await call(target, 'POST', `/api/community/posts/${post}/replies`, {
            ...common,
            body: { body: uniqueText('A reply from the fault lane') },
            route: '/api/community/posts/:id/replies',
          });
          const id = (outcome.json as { id?: string } | undefined)?.id;
          if (outcome.status === 201 && id) replies.push(id);
          break;
        }
        case 'page': {
          // A visitor: the member's address, but neither their token nor any cookie.
          const page = VISITOR_PAGES[Math.floor(Math.random() * VISITOR_PAGES.length)]!;
          outcome = await call(target, 'GET', page, {
            address: member.address,
            timeoutMs,
            headers: { ...connection, accept: 'text/html' },
            route: `${page}${PAGE_VIEW_ROUTE}`,
          });
          break;
        }
      }
      delete outcome.json;
      outcomes.push(outcome);
      // No answer (a refused or reset connection): pause a little rather than spin.
      if (outcome.error) await sleep(100);
      else if (options.thinkMs) await sleep(options.thinkMs * (0.5 + Math.random()));
    }
  };

  const running = Promise.all(
    loops.map((target, index) =>
      loop(
        target,
        options.members.filter((_, i) => i % loops.length === index),
      ),
    ),
  );
  return {
    outcomes,
    posts,
    replies,
    async stop() {
      stopping = true;
      await running;
      return outcomes;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Probes and reports

/**
 * Polls a write (an enrolment) and a read (the member's own account) on one process until both
 * answer 2xx; resolves to when they did, or undefined after `timeoutMs` or once the process exited.
 */
export async function waitForReadsAndWrites(
  target: Target & { hasExited?: () => boolean },
  member: Member,
  courseId: string,
  options: { timeoutMs: number; sink: Outcome[] },
): Promise<number | undefined> {
  const deadline = now() + options.timeoutMs;
  const common = { token: member.token, address: member.address, timeoutMs: 8000 };
  while (now() < deadline) {
    const write = await call(target, 'POST', `/api/courses/${courseId}/enrol`, { ...common, route: '/api/courses/:id/enrol (probe)' });
    const read = await call(target, 'GET', '/api/auth/me', { ...common, route: '/api/auth/me (probe)' });
    delete write.json;
    delete read.json;
    options.sink.push(write, read);
    if (ok(write) && ok(read)) return read.at;
    if (target.hasExited?.()) return undefined;
    await sleep(200);
  }
  return undefined;
}

export interface Phase {
  name: string;
  from: number;
  to: number;
}

/** Prints what the clients saw in each phase (by when each answer arrived), relative to `t0`. */
export function printPhases(title: string, outcomes: Outcome[], phases: Phase[], t0: number): void {
  const lines = [`== ${title}`];
  for (const phase of phases) {
    const inPhase = outcomes.filter((outcome) => outcome.at >= phase.from && outcome.at < phase.to);
    const slowest = Math.round(Math.max(0, ...inPhase.map((outcome) => outcome.durationMs)));
    lines.push(
      `  ${phase.name} (+${(Math.max(0, phase.from - t0) / 1000).toFixed(1)} s to +${((Math.min(phase.to, now()) - t0) / 1000).toFixed(1)} s): ` +
        `${inPhase.length} answers, slowest ${slowest} ms`,
    );
    lines.push(summarize(inPhase));
  }
  console.log(lines.join('\n'));
}

/** True while the promise is still pending. */
export async function pending(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  return (await Promise.race([promise, Promise.resolve(marker)])) === marker;
}
