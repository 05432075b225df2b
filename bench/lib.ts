import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { startServerProcess } from '../tests/helpers/server-process.ts';

// What the sections of `npm run bench` share (run.ts, scale.ts): the site's production process,
// answers exactly as sent, and load.

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
export const root = path.resolve(import.meta.dirname, '..');
const REQUEST_TIMEOUT_MS = 120_000;

export function requireBuild(): void {
  if (!fs.existsSync(path.join(root, 'build/server/index.js'))) {
    console.error('No production build: run `npm run build` first.');
    process.exit(1);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function waitUntil(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not come up`);
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** From sending the request to the answer's last byte. */
  ms: number;
}

/** One request and its answer exactly as sent: compressed bytes stay compressed (fetch would decode them). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
      response.on('error', reject);
    });
    // An answer this late is a hung server: the bench stops rather than wait for ever.
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`${url}: no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(options.body);
  });
}

export const rawGet = (url: string, headers: Record<string, string>) => rawRequest(url, { headers });

/** The body as the client reads it, once its content-encoding is undone. */
export function decodedBody(answer: RawAnswer): Buffer {
  switch (answer.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(answer.body);
    case 'gzip':
      return zlib.gunzipSync(answer.body);
    case 'deflate':
      return zlib.inflateSync(answer.body);
    default:
      return answer.body;
  }
}

export async function load(url: string, headers: Record<string, string>, seconds = SECONDS) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  // Which statuses the non-2xx answers were, when there were any.
  const failed = Object.entries(result.statusCodeStats ?? {}).filter(([status]) => !status.startsWith('2'));
  return {
    requests_per_second: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
    ...(failed.length ? { non_2xx_statuses: Object.fromEntries(failed.map(([status, stats]) => [status, stats.count ?? 0])) } : {}),
  };
}

/** The Cookie header a browser would send back after this answer. */
export function sessionCookie(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

export interface Site {
  url: string;
  process: ChildProcess;
}

/**
 * The environment of the site's processes in production: outside services the calling shell may
 * name (mail, payments, Redis, S3, a first staff account) are left out unless `env` sets them.
 */
export function productionEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SMTP_URL: '',
    STRIPE_SECRET_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    REDIS_URL: '',
    S3_BUCKET: '',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    ...env,
  };
}

const START_WORDS = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start.split(/\s+/);
/** The flags and variables `npm start` gives node (package.json): the bench runs the server as production does. */
const START_FLAGS = START_WORDS.filter((word) => word.startsWith('--'));
const START_VARIABLES = Object.fromEntries(
  START_WORDS.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
);

/**
 * The production server (`node server/main.ts`, with npm start's flags) on a port of its choosing,
 * once it says it is ready (tests/helpers/server-process.ts); its log to ours, or to `logFile`.
 * `startMs` is how long the start took as the bench saw it, from the spawn to the ready message.
 */
export async function startSite(
  env: Record<string, string>,
  logFile?: string,
): Promise<Site & { startMs: number; steps: Record<string, number> }> {
  const spawnedAt = performance.now();
  const server = await startServerProcess({
    args: [...START_FLAGS, 'server/main.ts'],
    env: productionEnvironment({ ...START_VARIABLES, HOST: '127.0.0.1', PORT: '0', ...env }),
  });
  const sink = logFile === undefined ? process.stdout : fs.createWriteStream(logFile, { flags: 'a' });
  if (logFile !== undefined) sink.write(server.output());
  server.child.stdout?.pipe(sink, { end: false });
  server.child.stderr?.pipe(sink, { end: false });
  return { url: server.url, process: server.child, startMs: Math.round(performance.now() - spawnedAt), steps: server.startMs };
}

/** SIGTERM, then wait for the exit (the server drains its requests and closes the database first). */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
