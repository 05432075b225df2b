import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SCALE_PASSWORD } from '../db/seed/scale.ts';
import { BUSY_HOUR_WANTED, busyHour, type BusyHourResult } from './busy-hour.ts';
import {
  CONNECTIONS,
  SECONDS,
  decodedBody,
  load,
  productionEnvironment,
  rawGet,
  rawRequest,
  requireBuild,
  root,
  sessionCookie,
  startSite,
  stopProcess,
  type Site,
} from './lib.ts';

// The scale section of `npm run bench` (alone: `node bench/scale.ts` or `BENCH_ONLY=scale npm run bench`):
// the production server on PostgreSQL, first on a database with only the demo catalogue, then on
// the scale data set (`npm run seed:scale`: 50,000 members, 200k discussions...), one server at a
// time, with the same requests: each row fetched once (status, bytes, time), then under load. Then
// the members CSV, reads right after a like and a post, and the server's memory. Prints scale/demo
// ratios and the targets, MET or MISS, and writes bench/results/scale.json. A MISS is a finding,
// not a failure: the process fails only when the bench itself breaks.

const ADMIN_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// What a browser sends, less deflate: the bytes as transferred are brotli or gzip.
const ENCODINGS = 'br, gzip';
/** Like-then-post rounds, each by another member: a member may start 5 discussions an hour. */
const WRITE_ROUNDS = 5;
const KB = 1024;
const MB = 1024 * 1024;
const WANTED = {
  pageMaxBytes: 256 * KB,
  pageMaxMs: 1000,
  minShareOfDemo: 0.5,
  readAfterWriteMaxMs: 100,
  postMaxMs: 300,
  memoryMaxBytes: 400 * MB,
  memoryMaxOfDemo: 1.5,
};
const DEMO_STAFF = { email: 'bench@example.com', password: 'bench-password' };

type Phase = 'demo' | 'scale';
type Who = 'visitor' | 'member' | 'gold' | 'staff' | 'staff API';

interface Row {
  who: Who;
  /** `{busy}` stands for the discussion with the most replies, which differs between the databases. */
  path: string;
  /** Must keep at least half its requests per second of the demo catalogue, without errors. */
  keepsPace?: boolean;
  /** And its 99th percentile under load at most this long on the scale data set, ms. */
  maxP99Ms?: number;
}

const BUSY = '{busy}';
const ROWS: Row[] = [
  { who: 'visitor', path: '/community' },
  { who: 'visitor', path: '/api/community/posts' },
  { who: 'member', path: '/community', keepsPace: true },
  { who: 'member', path: '/api/community/feed', keepsPace: true },
  { who: 'member', path: '/api/community/feed?sort=top' },
  // Issue 32: community search at scale keeps half its demo pace, its p99 under 200 ms.
  { who: 'member', path: '/api/community/feed?q=open%20house', keepsPace: true, maxP99Ms: 200 },
  { who: 'member', path: `/community/${BUSY}` },
  { who: 'member', path: `/api/community/posts/${BUSY}` },
  { who: 'member', path: '/dashboard', keepsPace: true },
  { who: 'gold', path: '/api/community/feed?space=gold' },
  { who: 'staff', path: '/admin/dashboard/community' },
  { who: 'staff', path: '/admin/dashboard/members' },
  { who: 'staff', path: '/admin/dashboard/members?search=smith' },
  { who: 'staff', path: '/admin/dashboard/activity' },
  { who: 'staff', path: '/admin/dashboard/files' },
  { who: 'staff', path: '/admin/dashboard/messages' },
  { who: 'staff', path: '/admin/dashboard/courses' },
  { who: 'staff', path: '/admin/dashboard/insights?weeks=52' },
  { who: 'staff API', path: '/api/admin/members' },
  { who: 'staff API', path: '/api/admin/insights/engagement?weeks=52' },
  { who: 'staff API', path: '/api/admin/insights/revenue?months=24' },
  { who: 'staff API', path: '/api/admin/insights/retention?months=24' },
];
const rowName = (row: Row) => `${row.who} GET ${row.path}`;

interface Accounts {
  password: string;
  /** Bronze: the member rows. */
  reader: string;
  gold: string;
  /** Bronze, one per write round. */
  writers: string[];
  staff: { email: string; password: string };
}

interface Sessions {
  member: string;
  gold: string;
  writers: string[];
  staffCookie: string;
  staffToken: string;
}

interface Single {
  status: number;
  ms: number;
  bytes_sent: number;
  bytes: number;
}

interface RowResult {
  row: string;
  path: string;
  single: Single;
  load: Awaited<ReturnType<typeof load>>;
  /** The server's resident memory right after this row's load, MB: where a peak came from. */
  rss_mb: number;
}

interface WriteRound {
  liked: string | null;
  like_status: number | null;
  like_ms: number | null;
  feed_after_like_ms: number;
  page_after_like_ms: number;
  like_shown: boolean;
  post_status: number;
  post_ms: number;
  feed_after_post_ms: number;
  page_after_post_ms: number;
  post_heads_feed: boolean;
  post_on_page: boolean;
}

interface ServerLog {
  warnings: number;
  errors: number;
  messages: { level: string; message: string; count: number; first_error: string | null }[];
}

interface PhaseResult {
  busy_discussion: { id: string; replies: number };
  rows: RowResult[];
  csv: Single & { lines: number; members: number };
  writes: WriteRound[];
  memory_mb: { after_warm_up: number; at_end: number; max: number };
  /** On the scale data set only. */
  busy_hour?: BusyHourResult;
  server_log: ServerLog;
}

interface FeedPage {
  posts: { id: string; liked_by_me: boolean; mine: boolean; pinned: boolean }[];
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const kb = (bytes: number) => (bytes / KB).toFixed(1);
const failures = (loaded: RowResult['load']) =>
  `non-2xx ${loaded.non_2xx}${loaded.non_2xx_statuses ? ` ${JSON.stringify(loaded.non_2xx_statuses)}` : ''}, errors ${loaded.errors}`;
const isOk = (status: number | null) => status !== null && status >= 200 && status < 300;

// The process that is running now (a server or the seed), for the clean-up after a signal.
let running: ChildProcess | undefined;

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The resident memory of a process, from the kernel (what the machine really gives it). */
function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * KB : 0;
}

/** What `npm run seed:scale` runs, into the scale database; returns how long it took, in seconds. */
async function seedScale(url: string, dataDir: string): Promise<number> {
  const started = performance.now();
  const seed = spawn(process.execPath, ['server/cli/seed-scale-cli.ts'], {
    cwd: root,
    env: productionEnvironment({ DATABASE_URL: url, DATA_DIR: dataDir }),
    stdio: 'inherit',
  });
  running = seed;
  const code = await new Promise((resolve) => seed.once('exit', resolve));
  running = undefined;
  if (code !== 0) throw new Error(`The scale data set could not be seeded (exit ${code})`);
  return round1((performance.now() - started) / 1000);
}

async function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** On the demo catalogue, the members are registered like anyone, and their tiers raised in SQL (as payments or staff would). */
async function registerDemoAccounts(site: Site, db: pg.Client): Promise<Accounts> {
  const email = (label: string) => `bench-${label}@example.com`;
  const accounts: Accounts = {
    password: 'bench-password',
    reader: email('reader'),
    gold: email('gold'),
    writers: Array.from({ length: WRITE_ROUNDS }, (_, index) => email(`writer-${index + 1}`)),
    staff: DEMO_STAFF,
  };
  const everyone = [accounts.reader, accounts.gold, ...accounts.writers];
  for (const [index, address] of everyone.entries()) {
    // Named Smith, so the staff's member search finds some on both databases.
    const response = await postJson(`${site.url}/api/auth/register`, {
      name: `Bench Smith ${index + 1}`,
      email: address,
      password: accounts.password,
    });
    if (response.status !== 201) throw new Error(`Could not register ${address}: ${response.status} ${await response.text()}`);
  }
  const raise = 'update members set membership_tier = $1, complimentary_tier = $1 where email = any($2::text[])';
  await db.query(raise, ['bronze', [accounts.reader, ...accounts.writers]]);
  await db.query(raise, ['gold', [accounts.gold]]);
  return accounts;
}

/** On the scale data set, the members' tiers are drawn at random: the first members of each tier who may post. */
async function findScaleAccounts(db: pg.Client): Promise<Accounts> {
  const membersOf = async (tier: string, count: number) =>
    (
      await db.query<{ email: string }>(
        'select email from members where membership_tier = $1 and community_suspended_at is null order by created_at limit $2',
        [tier, count],
      )
    ).rows.map((row) => row.email);
  const [reader, ...writers] = await membersOf('bronze', 1 + WRITE_ROUNDS);
  const [gold] = await membersOf('gold', 1);
  const owner = (await db.query<{ email: string }>("select email from staff_accounts where role = 'owner' order by created_at limit 1"))
    .rows[0];
  if (!reader || writers.length < WRITE_ROUNDS || !gold || !owner) {
    throw new Error('The scale data set lacks the Bronze, Gold or owner accounts the bench signs in as');
  }
  return { password: SCALE_PASSWORD, reader, gold, writers, staff: { email: owner.email, password: SCALE_PASSWORD } };
}

async function signIn(site: Site, apiPath: string, email: string, password: string): Promise<Response> {
  const response = await postJson(`${site.url}${apiPath}`, { email, password });
  if (response.status !== 200) throw new Error(`${email} could not sign in at ${apiPath}: ${response.status} ${await response.text()}`);
  return response;
}

async function signInAll(site: Site, accounts: Accounts): Promise<Sessions> {
  const member = async (email: string) => sessionCookie(await signIn(site, '/api/auth/login', email, accounts.password));
  const staff = await signIn(site, '/api/admin/login', accounts.staff.email, accounts.staff.password);
  const writers: string[] = [];
  for (const writer of accounts.writers) writers.push(await member(writer));
  return {
    member: await member(accounts.reader),
    gold: await member(accounts.gold),
    writers,
    // The staff pages read the cookie; the API takes the token, as an API client would send it.
    staffCookie: sessionCookie(staff),
    staffToken: ((await staff.json()) as { token: string }).token,
  };
}

function headersFor(who: Who, sessions: Sessions): Record<string, string> {
  const credentials: Record<Who, Record<string, string>> = {
    visitor: {},
    member: { cookie: sessions.member },
    gold: { cookie: sessions.gold },
    staff: { cookie: sessions.staffCookie },
    'staff API': { authorization: `Bearer ${sessions.staffToken}` },
  };
  return { 'accept-encoding': ENCODINGS, ...credentials[who] };
}

async function fetchOnce(url: string, headers: Record<string, string>): Promise<Single> {
  const answer = await rawGet(url, headers);
  return { status: answer.status, ms: round1(answer.ms), bytes_sent: answer.body.length, bytes: decodedBody(answer).length };
}

/** Not under load: the export is one long answer, streamed page by page. */
async function exportCsv(site: Site, sessions: Sessions, db: pg.Client): Promise<PhaseResult['csv']> {
  const answer = await rawGet(`${site.url}/api/admin/members/export.csv`, headersFor('staff API', sessions));
  const text = decodedBody(answer).toString('utf8');
  const members = (await db.query<{ count: number }>('select count(*)::int as count from members')).rows[0]!.count;
  return {
    status: answer.status,
    ms: round1(answer.ms),
    bytes_sent: answer.body.length,
    bytes: Buffer.byteLength(text),
    lines: text.split('\r\n').filter((line) => line !== '').length,
    members,
  };
}

/**
 * Each round, another Bronze member likes a discussion and then starts one; the reads right after
 * each write are timed, as the member's next page would be (the write makes the caches stale).
 */
async function readsAfterWrites(site: Site, writers: string[]): Promise<WriteRound[]> {
  const rounds: WriteRound[] = [];
  for (const [index, cookie] of writers.entries()) {
    const headers = { 'accept-encoding': ENCODINGS, cookie };
    const readFeed = async () => {
      const answer = await rawGet(`${site.url}/api/community/feed`, headers);
      return {
        ms: round1(answer.ms),
        page: answer.status === 200 ? (JSON.parse(decodedBody(answer).toString('utf8')) as FeedPage) : undefined,
      };
    };
    const readPage = async () => {
      const answer = await rawGet(`${site.url}/community`, headers);
      return { ms: round1(answer.ms), html: decodedBody(answer).toString('utf8') };
    };

    const liked = (await readFeed()).page?.posts.find((post) => !post.liked_by_me && !post.mine)?.id ?? null;
    const like = liked
      ? await rawRequest(`${site.url}/api/community/posts/${encodeURIComponent(liked)}/like`, { method: 'PUT', headers })
      : null;
    const feedAfterLike = await readFeed();
    const pageAfterLike = await readPage();

    const title = `Bench round ${index + 1}: open house follow-up ${Date.now()}`;
    const post = await rawRequest(`${site.url}/api/community/posts`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title, body: 'How soon do you call open house visitors back? I try the same evening.' }),
    });
    const postId = post.status === 201 ? (JSON.parse(decodedBody(post).toString('utf8')) as { id: string }).id : undefined;
    const feedAfterPost = await readFeed();
    const pageAfterPost = await readPage();

    rounds.push({
      liked,
      like_status: like?.status ?? null,
      like_ms: like ? round1(like.ms) : null,
      feed_after_like_ms: feedAfterLike.ms,
      page_after_like_ms: pageAfterLike.ms,
      like_shown: feedAfterLike.page?.posts.find((post) => post.id === liked)?.liked_by_me === true,
      post_status: post.status,
      post_ms: round1(post.ms),
      feed_after_post_ms: feedAfterPost.ms,
      page_after_post_ms: pageAfterPost.ms,
      // Pinned discussions head the first page; the newest of the others comes next.
      post_heads_feed: postId !== undefined && feedAfterPost.page?.posts.find((found) => !found.pinned)?.id === postId,
      post_on_page: pageAfterPost.html.includes(title),
    });
  }
  return rounds;
}

/**
 * Waits until the database runs no query for the site: the requests a load leaves in flight finish
 * before the next row is measured, so no row pays for the one before.
 */
async function settle(db: pg.Client): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { rows } = await db.query<{ busy: number }>(
      `select count(*)::int as busy from pg_stat_activity
       where datname = current_database() and backend_type = 'client backend' and state = 'active' and pid <> pg_backend_pid()`,
    );
    if (rows[0]!.busy === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every row once and under load, the CSV, the writes, and the server's memory all along. */
/**
 * A row whose pace is a target is loaded this many times and its middle round (by requests per
 * second) counts, with every round's failures: one round of a few seconds moved by 20 points from
 * run to run on this machine, on either data set.
 */
const PACE_ROUNDS = 3;

async function middleRound(round: () => ReturnType<typeof load>): ReturnType<typeof load> {
  const rounds: Awaited<ReturnType<typeof load>>[] = [];
  for (let index = 0; index < PACE_ROUNDS; index++) rounds.push(await round());
  const middle = [...rounds].sort((a, b) => a.requests_per_second - b.requests_per_second)[Math.floor(PACE_ROUNDS / 2)]!;
  const sum = (pick: (result: Awaited<ReturnType<typeof load>>) => number) => rounds.reduce((total, result) => total + pick(result), 0);
  return { ...middle, non_2xx: sum((result) => result.non_2xx), errors: sum((result) => result.errors) };
}

async function measureSite(phase: Phase, site: Site, db: pg.Client): Promise<Omit<PhaseResult, 'server_log'>> {
  const pid = site.process.pid!;
  const accounts = phase === 'demo' ? await registerDemoAccounts(site, db) : await findScaleAccounts(db);
  const sessions = await signInAll(site, accounts);
  const busy = (
    await db.query<{ id: string; replies: number }>(
      "select id, replies_count as replies from community_posts where space = 'general' and hidden_at is null order by replies_count desc, id limit 1",
    )
  ).rows[0];
  if (!busy) throw new Error(`No discussion on the ${phase} database`);
  const urlOf = (row: Row) => `${site.url}${row.path.replace(BUSY, encodeURIComponent(busy.id))}`;

  // Every row once before measuring, so each is measured with the server warm (code loaded, plans cached).
  for (const row of ROWS) await rawGet(urlOf(row), headersFor(row.who, sessions));
  const memory = { after_warm_up: rssBytes(pid), at_end: 0, max: rssBytes(pid) };

  const rows: RowResult[] = [];
  for (const row of ROWS) {
    const headers = headersFor(row.who, sessions);
    await settle(db);
    const single = await fetchOnce(urlOf(row), headers);
    const loaded = row.keepsPace ? await middleRound(() => load(urlOf(row), headers)) : await load(urlOf(row), headers);
    const rss = rssBytes(pid);
    memory.max = Math.max(memory.max, rss);
    rows.push({ row: rowName(row), path: row.path, single, load: loaded, rss_mb: round1(rss / MB) });
    console.log(
      `  ${rowName(row)}: ${single.status}, ${single.ms} ms, ${kb(single.bytes)} KB (${kb(single.bytes_sent)} KB sent); ` +
        `${loaded.requests_per_second} req/s, p99 ${loaded.latency_p99_ms} ms, ${failures(loaded)}; RSS ${round1(rss / MB)} MB`,
    );
  }

  await settle(db);
  const csv = await exportCsv(site, sessions, db);
  memory.max = Math.max(memory.max, rssBytes(pid));
  console.log(`  members CSV: ${csv.status}, ${csv.lines} lines for ${csv.members} members, ${kb(csv.bytes)} KB, ${csv.ms} ms`);
  const writes = await readsAfterWrites(site, sessions.writers);
  await settle(db);
  const busyHourResult = phase === 'scale' ? await busyHour(site, db, sessions.member.split('=')[0]!, sessions.staffToken) : undefined;
  memory.at_end = rssBytes(pid);
  memory.max = Math.max(memory.max, memory.at_end);
  const toMb = (bytes: number) => round1(bytes / MB);
  return {
    busy_discussion: busy,
    rows,
    csv,
    writes,
    memory_mb: { after_warm_up: toMb(memory.after_warm_up), at_end: toMb(memory.at_end), max: toMb(memory.max) },
    ...(busyHourResult && { busy_hour: busyHourResult }),
  };
}

function logEntry(line: string): { level: number; msg?: string; err?: { message?: string } } | undefined {
  try {
    const entry = JSON.parse(line) as { level?: unknown };
    return typeof entry.level === 'number' ? (entry as { level: number }) : undefined;
  } catch {
    return undefined;
  }
}

/** What the server logged at warn and above, counted by message, with the first error of each. */
function summarizeLog(logFile: string): ServerLog {
  const messages = new Map<string, ServerLog['messages'][number]>();
  let warnings = 0;
  let errors = 0;
  for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
    const entry = logEntry(line);
    // The few plain lines (what the server prints as it starts) are not log entries.
    if (!entry || entry.level < 40) continue;
    const level = entry.level;
    if (level >= 50) errors++;
    else warnings++;
    const message = entry.msg ?? line;
    const seen = messages.get(message) ?? {
      level: level >= 50 ? 'error' : 'warn',
      message,
      count: 0,
      first_error: entry.err?.message ?? null,
    };
    seen.count++;
    messages.set(message, seen);
  }
  return { warnings, errors, messages: [...messages.values()].sort((a, b) => b.count - a.count) };
}

/** One database, one server, started and stopped here; its log goes to a file and comes back as counts. */
async function measurePhase(phase: Phase, url: string, dataDir: string): Promise<PhaseResult> {
  console.log(`\nScale section, ${phase}: starting the server on ${phase === 'demo' ? 'the demo catalogue' : 'the scale data set'}`);
  const logFile = path.join(dataDir, 'server.log');
  const env = {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    // The scale data set has staff of its own.
    ...(phase === 'demo' ? { ADMIN_EMAIL: DEMO_STAFF.email, ADMIN_PASSWORD: DEMO_STAFF.password } : {}),
  };
  const site = await startSite(env, logFile).catch((error: unknown) => {
    console.error(fs.readFileSync(logFile, 'utf8').slice(-4000));
    throw error;
  });
  running = site.process;
  const db = new pg.Client({ connectionString: url });
  let measured: Omit<PhaseResult, 'server_log'>;
  try {
    await db.connect();
    measured = await measureSite(phase, site, db);
  } finally {
    await db.end();
    await stopProcess(site.process);
    running = undefined;
  }
  const serverLog = summarizeLog(logFile);
  console.log(`  server log: ${serverLog.warnings} warnings, ${serverLog.errors} errors`);
  for (const entry of serverLog.messages) {
    console.log(`    ${entry.count} x ${entry.level} ${entry.message}${entry.first_error ? ` (${entry.first_error})` : ''}`);
  }
  return { ...measured, server_log: serverLog };
}

function printTable(header: string[], lines: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}

/** A phase's other results: its rows are in the report's rows, side by side. */
const withoutRows = ({ rows: _rows, ...rest }: PhaseResult) => rest;
const isBounded = (single: Single) => single.bytes <= WANTED.pageMaxBytes && single.ms <= WANTED.pageMaxMs;
const worst = (values: number[]) => Math.max(0, ...values);
const readsOf = (write: WriteRound) => [
  write.feed_after_like_ms,
  write.page_after_like_ms,
  write.feed_after_post_ms,
  write.page_after_post_ms,
];

interface Target {
  target: string;
  wanted: string;
  measured: string;
  met: boolean;
}

function judge(demo: PhaseResult, scale: PhaseResult): Target[] {
  const targets: Target[] = [];
  const describeBounds = (phase: PhaseResult) => {
    const largest = phase.rows.reduce((a, b) => (b.single.bytes > a.single.bytes ? b : a));
    const slowest = phase.rows.reduce((a, b) => (b.single.ms > a.single.ms ? b : a));
    return `largest ${kb(largest.single.bytes)} KB (${largest.row}), slowest ${slowest.single.ms} ms (${slowest.row})`;
  };
  const unbounded = [
    ...demo.rows.filter((row) => !isBounded(row.single)).map((row) => `demo ${row.row}`),
    ...scale.rows.filter((row) => !isBounded(row.single)).map((row) => `scale ${row.row}`),
  ];
  targets.push({
    target: 'every page and API answer is one bounded page',
    wanted: `<= ${WANTED.pageMaxBytes / KB} KB uncompressed and <= ${WANTED.pageMaxMs} ms, single fetch, every row`,
    measured: `scale: ${describeBounds(scale)}; demo: ${describeBounds(demo)}${unbounded.length ? `; over: ${unbounded.join(', ')}` : ''}`,
    met: unbounded.length === 0,
  });

  for (const row of ROWS.filter((candidate) => candidate.keepsPace)) {
    const before = demo.rows.find((found) => found.row === rowName(row))!;
    const after = scale.rows.find((found) => found.row === rowName(row))!;
    const share = after.load.requests_per_second / Math.max(1, before.load.requests_per_second);
    targets.push({
      target: `${rowName(row)} keeps its pace`,
      wanted:
        `>= ${WANTED.minShareOfDemo * 100}% of the demo catalogue's req/s, no non-2xx or errors` +
        (row.maxP99Ms === undefined ? '' : `, p99 <= ${row.maxP99Ms} ms`),
      measured:
        `${after.load.requests_per_second} req/s = ${(share * 100).toFixed(1)}% of ${before.load.requests_per_second}; ` +
        `status ${after.single.status}, non-2xx ${after.load.non_2xx}, errors ${after.load.errors}` +
        (row.maxP99Ms === undefined ? '' : `, p99 ${after.load.latency_p99_ms} ms`),
      met:
        share >= WANTED.minShareOfDemo &&
        isOk(after.single.status) &&
        after.load.non_2xx === 0 &&
        after.load.errors === 0 &&
        (row.maxP99Ms === undefined || after.load.latency_p99_ms <= row.maxP99Ms),
    });
  }

  const readsWorst = (phase: PhaseResult) => worst(phase.writes.flatMap(readsOf));
  const likesOk = scale.writes.every((write) => isOk(write.like_status));
  targets.push({
    target: 'a read right after a like or a post',
    wanted: `<= ${WANTED.readAfterWriteMaxMs} ms (feed API and /community, worst of ${WRITE_ROUNDS} rounds)`,
    measured:
      `scale worst ${readsWorst(scale)} ms, demo worst ${readsWorst(demo)} ms; ` +
      `likes answered ${scale.writes.map((write) => write.like_status ?? 'none').join(', ')}; ` +
      `like shown at once ${scale.writes.filter((write) => write.like_shown).length}/${scale.writes.length}`,
    met: readsWorst(scale) <= WANTED.readAfterWriteMaxMs && likesOk,
  });

  const postWorst = (phase: PhaseResult) => worst(phase.writes.map((write) => write.post_ms));
  const heads = scale.writes.filter((write) => write.post_heads_feed).length;
  targets.push({
    target: 'a new post is accepted and heads the newest feed at once',
    wanted: `201 in <= ${WANTED.postMaxMs} ms, first (after the pinned) on the next GET /api/community/feed`,
    measured:
      `scale worst ${postWorst(scale)} ms (answers ${scale.writes.map((write) => write.post_status).join(', ')}), heads ${heads}/${scale.writes.length}, ` +
      `on /community ${scale.writes.filter((write) => write.post_on_page).length}/${scale.writes.length}; demo worst ${postWorst(demo)} ms`,
    met: scale.writes.every((write) => write.post_status === 201) && postWorst(scale) <= WANTED.postMaxMs && heads === scale.writes.length,
  });

  const memoryShare = scale.memory_mb.max / Math.max(1, demo.memory_mb.max);
  targets.push({
    target: 'server memory',
    wanted: `RSS <= ${WANTED.memoryMaxBytes / MB} MB and <= ${WANTED.memoryMaxOfDemo}x the demo catalogue's`,
    measured: `scale max ${scale.memory_mb.max} MB = ${memoryShare.toFixed(2)}x demo max ${demo.memory_mb.max} MB`,
    met: scale.memory_mb.max * MB <= WANTED.memoryMaxBytes && memoryShare <= WANTED.memoryMaxOfDemo,
  });

  const csvComplete = (phase: PhaseResult) => phase.csv.status === 200 && phase.csv.lines === phase.csv.members + 1;
  targets.push({
    target: 'the members CSV holds every member',
    wanted: 'one line per member, and the header',
    measured:
      `scale ${scale.csv.status}: ${scale.csv.lines} lines for ${scale.csv.members} members (${kb(scale.csv.bytes)} KB, ${scale.csv.ms} ms); ` +
      `demo ${demo.csv.status}: ${demo.csv.lines} lines for ${demo.csv.members}`,
    met: csvComplete(scale) && csvComplete(demo),
  });

  const failing = [demo, scale].flatMap((phase, index) =>
    phase.rows
      .filter((row) => !isOk(row.single.status) || row.load.non_2xx > 0 || row.load.errors > 0)
      .map((row) => `${index === 0 ? 'demo' : 'scale'} ${row.row} (single fetch ${row.single.status}; under load ${failures(row.load)})`),
  );
  const busy = scale.busy_hour;
  if (busy) {
    targets.push({
      target: 'a busy hour: readers keep their pace while 500 members act',
      wanted: `/dashboard and /community each >= ${BUSY_HOUR_WANTED.minShareOfQuiet * 100}% of their quiet req/s`,
      measured: `/dashboard ${(busy.share_of_quiet.dashboard * 100).toFixed(1)}% (${busy.busy.dashboard_rps} of ${busy.quiet.dashboard_rps} req/s), /community ${(busy.share_of_quiet.community * 100).toFixed(1)}% (${busy.busy.community_rps} of ${busy.quiet.community_rps} req/s)`,
      met:
        busy.share_of_quiet.dashboard >= BUSY_HOUR_WANTED.minShareOfQuiet &&
        busy.share_of_quiet.community >= BUSY_HOUR_WANTED.minShareOfQuiet,
    });
    targets.push({
      target: 'a busy hour: the dashboards kept for their members stay kept',
      wanted: `hit rate > ${BUSY_HOUR_WANTED.minDashboardHitRate * 100}%`,
      measured: `${(busy.dashboard_hit_rate * 100).toFixed(1)}%`,
      met: busy.dashboard_hit_rate > BUSY_HOUR_WANTED.minDashboardHitRate,
    });
  }
  targets.push({
    target: 'every row answers 2xx',
    wanted: 'no non-2xx or errors, single fetch and under load',
    measured: failing.length ? failing.join('; ') : 'none failed',
    met: failing.length === 0,
  });
  return targets;
}

function printReport(demo: PhaseResult, scale: PhaseResult, targets: Target[]): void {
  console.log(`\nScale section: scale data set / demo catalogue, ${SECONDS} s x ${CONNECTIONS} connections per row`);
  printTable(
    [
      'row',
      'status d/s',
      'req/s demo',
      'req/s scale',
      'scale/demo',
      'p99 ms d/s',
      'fetch ms demo',
      'fetch ms scale',
      'KB demo',
      'KB scale',
      'KB sent scale',
      'non-2xx d/s',
      'errors d/s',
      'bounded',
    ],
    demo.rows.map((before, index) => {
      const after = scale.rows[index]!;
      return [
        before.row,
        `${before.single.status}/${after.single.status}`,
        String(before.load.requests_per_second),
        String(after.load.requests_per_second),
        (after.load.requests_per_second / Math.max(1, before.load.requests_per_second)).toFixed(2),
        `${before.load.latency_p99_ms}/${after.load.latency_p99_ms}`,
        String(before.single.ms),
        String(after.single.ms),
        kb(before.single.bytes),
        kb(after.single.bytes),
        kb(after.single.bytes_sent),
        `${before.load.non_2xx}/${after.load.non_2xx}`,
        `${before.load.errors}/${after.load.errors}`,
        isBounded(after.single) ? 'MET' : 'MISS',
      ];
    }),
  );

  console.log('\nReads right after writes (worst of the rounds), the members CSV and memory');
  const worstOf = (ms: (write: WriteRound) => number | null) => (phase: PhaseResult) =>
    String(worst(phase.writes.map((write) => ms(write) ?? 0)));
  const facts: [string, (phase: PhaseResult) => string][] = [
    ['like answered in, ms', worstOf((write) => write.like_ms)],
    ['feed after a like, ms', worstOf((write) => write.feed_after_like_ms)],
    ['/community after a like, ms', worstOf((write) => write.page_after_like_ms)],
    ['post accepted in, ms', worstOf((write) => write.post_ms)],
    ['feed after a post, ms', worstOf((write) => write.feed_after_post_ms)],
    ['/community after a post, ms', worstOf((write) => write.page_after_post_ms)],
    ['new post heads the feed', (phase) => `${phase.writes.filter((write) => write.post_heads_feed).length}/${phase.writes.length}`],
    ['members CSV lines / members', (phase) => `${phase.csv.lines}/${phase.csv.members}`],
    ['members CSV KB, ms', (phase) => `${kb(phase.csv.bytes)}, ${phase.csv.ms}`],
    ['busy discussion replies', (phase) => String(phase.busy_discussion.replies)],
    ['RSS after warm-up, MB', (phase) => String(phase.memory_mb.after_warm_up)],
    ['RSS at end, MB', (phase) => String(phase.memory_mb.at_end)],
    ['RSS max, MB', (phase) => String(phase.memory_mb.max)],
    ['server log warnings / errors', (phase) => `${phase.server_log.warnings}/${phase.server_log.errors}`],
  ];
  printTable(
    ['', 'demo', 'scale'],
    facts.map(([label, of]) => [label, of(demo), of(scale)]),
  );

  console.log('');
  for (const target of targets) {
    console.log(`${target.met ? 'MET ' : 'MISS'} ${target.target}: ${target.measured}; wanted ${target.wanted}`);
  }
}

/** The scale section: two databases of its own on BENCH_DATABASE_URL's server, dropped at the end whatever happens. */
export async function scaleSection(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`The scale section needs PostgreSQL at BENCH_DATABASE_URL (${ADMIN_DATABASE_URL}): ${(error as Error).message}`, {
      cause: error,
    });
  }
  const names: Record<Phase, string> = { demo: `rp_bench_demo_${process.pid}`, scale: `rp_bench_scale_${process.pid}` };
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-scale-'));
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await stopProcess(running);
      // `with (force)`: a server or seed that is still connected does not keep its database.
      for (const name of Object.values(names)) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      fs.rmSync(tempDir, { recursive: true, force: true });
    })());
  const interrupted = (signal: NodeJS.Signals) => void cleanUp().finally(() => process.exit(128 + os.constants.signals[signal]));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    for (const name of Object.values(names)) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
    const urls = { demo: databaseUrl(names.demo), scale: databaseUrl(names.scale) };
    const dataDirs = { demo: path.join(tempDir, 'demo'), scale: path.join(tempDir, 'scale') };
    for (const dir of Object.values(dataDirs)) fs.mkdirSync(dir);

    // The scale data set first, while no server runs; a checkpoint then writes its pages out, so
    // neither phase is measured against the seed's writes.
    console.log(`\nScale section: seeding the scale data set into ${names.scale}`);
    const seedSeconds = await seedScale(urls.scale, dataDirs.scale);
    console.log(`Scale data set seeded in ${seedSeconds} s`);
    await admin.query('checkpoint');

    const demo = await measurePhase('demo', urls.demo, dataDirs.demo);
    const scale = await measurePhase('scale', urls.scale, dataDirs.scale);
    const targets = judge(demo, scale);
    printReport(demo, scale, targets);

    const postgres = (await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version;
    const report = {
      measured_at: new Date().toISOString(),
      machine: `${os.cpus().length} cores`,
      postgresql: postgres,
      seconds_per_run: SECONDS,
      connections: CONNECTIONS,
      seed_seconds: seedSeconds,
      rows: demo.rows.map((before, index) => {
        const after = scale.rows[index]!;
        return {
          row: before.row,
          demo: { ...before.single, ...before.load },
          scale: { ...after.single, ...after.load },
          requests_ratio: Math.round((after.load.requests_per_second / Math.max(1, before.load.requests_per_second)) * 100) / 100,
          bounded: isBounded(after.single),
        };
      }),
      phases: {
        demo: withoutRows(demo),
        scale: withoutRows(scale),
      },
      targets,
    };
    fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(root, 'bench/results/scale.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log('Written bench/results/scale.json');
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
}

if (import.meta.main) {
  requireBuild();
  await scaleSection();
}
