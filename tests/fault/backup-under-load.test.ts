import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanupAll,
  freeCourseIds,
  offenders,
  ok,
  registerMembers,
  sleep,
  startLoad,
  startServer,
  summarize,
  summarizeOutput,
  type Outcome,
  type ServerProcess,
} from './harness.ts';

// An online backup of the embedded database (`npm run db:backup` while the site runs, on the demo
// catalogue) under a mixed load over kept-alive connections: no request fails or is dropped, and the
// site keeps answering while the dump is made. PGlite's own dump built the archive on the main
// thread, so nothing was answered for the whole dump (seconds), and a kept-alive connection could be
// reset. The embedded database is one process's (db/lock.ts): there is no second process to share it.
//
// "While the dump is made" is read from the server's own log lines (their `time`), which say when it
// began and when it was ready: requests sent after the first and answered before the second. The
// database is held still for a moment of the dump (the copy's second pass, db/online-copy.ts): no
// request sent meanwhile waits for half of the dump.

const root = path.resolve(import.meta.dirname, '../..');
const LOOPS = 6;
/** Sent after the dump began and answered before it ended: with the dump on the main thread, none is. */
const ANSWERED_DURING_DUMP_AT_LEAST = 3;

let server: ServerProcess;
let outcomes: Outcome[] = [];
let backup: { code: number | null; output: string };
let verified: { code: number | null; output: string };
let dumpWindow: { from: number; to: number } | undefined;
let dataDir: string;

afterAll(async () => {
  await cleanupAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A log line's `time` (epoch ms) on the load's clock (`now()`). */
const onLoadClock = (epochMs: number) => epochMs - performance.timeOrigin;

function logTime(output: string, message: string): number | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes(message)) continue;
    const entry = JSON.parse(line) as { time?: number };
    if (typeof entry.time === 'number') return onLoadClock(entry.time);
  }
  return undefined;
}

/** `npm run db:backup -- ARGS`, as an operator runs it. */
function runBackup(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(path.join(root, 'node_modules/.bin/node'), ['server/cli/backup-cli.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-fault-backup-'));
  // The demo catalogue, for a dump of a real size; info lines, for the dump's start and end.
  server = await startServer({ name: 'A', env: { DATA_DIR: dataDir, SEED_DEMO: '1', LOG_LEVEL: 'info' } });
  const members = await registerMembers(server, undefined, LOOPS, { tier: 'free', label: 'backup' });
  const courseIds = await freeCourseIds(server);
  const load = startLoad({
    targets: [server],
    loopsPerTarget: LOOPS,
    members,
    courseIds,
    postIds: [],
    // Free members (the embedded database has no cluster to raise them in) read and enrol; sign-ins
    // and their scrypt hashes would only slow the loops.
    mix: { login: 0, post: 0, reply: 0 },
  });
  await sleep(1_000);
  const archive = `${dataDir}.tar.gz`;
  backup = await runBackup([archive]);
  await sleep(1_000);
  outcomes = await load.stop();
  verified = await runBackup(['--verify', archive]);
  fs.rmSync(archive, { force: true });

  const from = logTime(server.output(), 'control socket: making a database dump');
  const to = logTime(server.output(), 'control socket: sending a database dump');
  dumpWindow = from !== undefined && to !== undefined ? { from, to } : undefined;
  console.log(
    `online backup under load: ${outcomes.length} requests; the dump took ${dumpWindow ? Math.round(dumpWindow.to - dumpWindow.from) : '?'} ms\n` +
      `${summarize(outcomes)}\nserver output:\n${summarizeOutput(server.output())}`,
  );
}, 240_000);

describe('an online backup of the embedded database under load', () => {
  it('writes an archive whose database opens, copied while it was written to', () => {
    expect(backup.code, backup.output).toBe(0);
    expect(verified.code, verified.output).toBe(0);
    expect(verified.output).toContain('is a good backup');
    // The members the load signed up are in it.
    expect(Number(/Embedded database: \d+ migrations, (\d+) members/.exec(verified.output)?.[1])).toBeGreaterThanOrEqual(LOOPS);
    expect(dumpWindow, server.output().slice(-3000)).toBeDefined();
  });

  it('answers every request, none dropped or failed', () => {
    expect(outcomes.length).toBeGreaterThan(0);
    expect(offenders(outcomes, ok)).toEqual([]);
  });

  it('keeps answering while the dump is made', () => {
    const { from, to } = dumpWindow!;
    const during = outcomes.filter((outcome) => (outcome.sentAt ?? outcome.startedAt) > from && outcome.at < to);
    const waits = outcomes
      .filter((outcome) => (outcome.sentAt ?? outcome.startedAt) > from && (outcome.sentAt ?? outcome.startedAt) < to)
      .map((outcome) => outcome.at - (outcome.sentAt ?? outcome.startedAt));
    expect(
      during.length,
      `only ${during.length} requests sent after the dump began were answered before it was ready (${Math.round(to - from)} ms)`,
    ).toBeGreaterThanOrEqual(ANSWERED_DURING_DUMP_AT_LEAST);
    // Held still for a moment at most, never for the dump: no request waits half of it.
    const longest = Math.max(...waits);
    expect(longest, `a request sent during the dump waited ${Math.round(longest)} ms of its ${Math.round(to - from)} ms`).toBeLessThan(
      (to - from) / 2,
    );
  });
});
