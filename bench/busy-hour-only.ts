import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SCALE_PASSWORD } from '../db/seed/scale.ts';
import { busyHour } from './busy-hour.ts';
import { load, requireBuild, sessionCookie, startSite, stopProcess } from './lib.ts';

// Only the scale section's busy hour (bench/busy-hour.ts), on a database already seeded with the
// scale data set: `node bench/busy-hour-only.ts` (BUSY_DATABASE_URL, default rp_scale on localhost).
// BUSY_PROFILE=<dir>: the server writes a CPU profile there (--cpu-prof) when it stops.
// BUSY_SAMPLE=1: pg_stat_activity of the database sampled every 200 ms, and the server's CPU time,
// by phase (warm, quiet, ramp, busy), and the server's /metrics database figures before and after.

const url = process.env.BUSY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/rp_scale';
const profileDir = process.env.BUSY_PROFILE;
const sample = process.env.BUSY_SAMPLE === '1';

requireBuild();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-busy-'));
const logFile = path.join(dataDir, 'server.log');
const env: Record<string, string> = { DATABASE_URL: url, DATA_DIR: dataDir, SEED_DEMO: '1' };
if (profileDir) env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
if (process.env.BUSY_POOL) env.DATABASE_POOL_SIZE = process.env.BUSY_POOL;

const site = await startSite(env, logFile).catch((error: unknown) => {
  if (fs.existsSync(logFile)) console.error(fs.readFileSync(logFile, 'utf8').slice(-4000));
  throw error;
});
console.log(`server ${site.url} (pid ${site.process.pid}), log ${logFile}`);
const db = new pg.Client({ connectionString: url });
await db.connect();

// Phases, marked from the busy hour's own messages.
let phase = 'setup';
const cpuAt = () => {
  const stat = fs.readFileSync(`/proc/${site.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, in clock ticks (100 a second on Linux).
  return (Number(stat[11]) + Number(stat[12])) / 100;
};
/** The whole machine's busy time, and this process's (the load generator), in seconds. */
const machineAt = () => {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (fields.reduce((a, b) => a + b, 0) - fields[3]! - fields[4]!) / 100;
};
const driverAt = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};
const marks: { phase: string; at: number; cpu: number; machine: number; driver: number }[] = [
  { phase, at: performance.now(), cpu: cpuAt(), machine: machineAt(), driver: driverAt() },
];
const mark = (next: string) => {
  phase = next;
  marks.push({ phase, at: performance.now(), cpu: cpuAt(), machine: machineAt(), driver: driverAt() });
  // Index and table scans of a few tables, by phase: how often the server read sessions, say.
  void db
    .query<{ relname: string; scans: string }>(
      `select relname, (coalesce(idx_scan, 0) + coalesce(seq_scan, 0))::text as scans from pg_stat_user_tables
       where relname in ('sessions', 'notifications', 'enrolments', 'community_posts', 'goals', 'members', 'weekly_counts', 'data_versions', 'outbox_messages', 'push_messages')
       union all select 'transactions', (xact_commit + xact_rollback)::text from pg_stat_database where datname = current_database()`,
    )
    .then((result) => (scans[next] = Object.fromEntries(result.rows.map((row) => [row.relname, Number(row.scans)]))))
    .catch(() => {});
};
const scans: Record<string, Record<string, number>> = {};
const log = console.log;
console.log = (...args: unknown[]) => {
  const text = String(args[0]);
  // The busy hour's own messages, and its fixed lengths (15 s of warming, 15 s quiet, 15 s busy).
  if (text.includes('readers of /dashboard and /community, quiet')) {
    mark('warm');
    setTimeout(() => mark('quiet'), 15_000);
    setTimeout(() => mark('ramp'), 30_000);
  }
  if (text.includes('members acting')) {
    mark('busy');
    setTimeout(() => phase === 'busy' && mark('tail'), 15_000);
  }
  log(...args);
};

const samples = new Map<string, Map<string, number>>();
let sampler: NodeJS.Timeout | undefined;
if (sample) {
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  const tick = async () => {
    const { rows } = await watcher.query<{ what: string }>(
      `select coalesce(wait_event_type, '-') || '/' || coalesce(wait_event, '-') || ' ' || state || ' ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 80) as what
       from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
    );
    const blocked = await watcher.query<{ what: string }>(
      `select 'BLOCKED ' || left(regexp_replace(w.query, '\\s+', ' ', 'g'), 60) || ' BY ' || b.state || ' ' || left(regexp_replace(b.query, '\\s+', ' ', 'g'), 70) as what
       from pg_stat_activity w join pg_stat_activity b on b.pid = any(pg_blocking_pids(w.pid)) where w.datname = current_database()`,
    );
    const counts = samples.get(phase) ?? new Map<string, number>();
    counts.set('#samples', (counts.get('#samples') ?? 0) + 1);
    for (const row of [...rows, ...blocked.rows]) counts.set(row.what, (counts.get(row.what) ?? 0) + 1);
    samples.set(phase, counts);
  };
  sampler = setInterval(() => void tick().catch(() => {}), 200);
  site.process.once('exit', () => void watcher.end().catch(() => {}));
}

const metrics = async () =>
  (await (await fetch(`${site.url}/metrics`)).text())
    .split('\n')
    .filter((line) =>
      /^(db_|own_page|nodejs_eventloop_lag_(mean|p99|max)|nodejs_heap_size_used|process_resident|nodejs_gc_duration_seconds_(sum|count))/.test(
        line,
      ),
    );

try {
  const [reader] = (
    await db.query<{ email: string }>(
      "select email from members where membership_tier = 'bronze' and community_suspended_at is null order by created_at limit 1",
    )
  ).rows;
  const owner = (await db.query<{ email: string }>("select email from staff_accounts where role = 'owner' order by created_at limit 1"))
    .rows[0];
  if (!reader || !owner) throw new Error('No Bronze member or owner in the database');
  const signIn = async (apiPath: string, email: string) => {
    const response = await fetch(`${site.url}${apiPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: SCALE_PASSWORD }),
    });
    if (response.status !== 200) throw new Error(`${email} could not sign in: ${response.status} ${await response.text()}`);
    return response;
  };
  const cookieName = sessionCookie(await signIn('/api/auth/login', reader.email)).split('=')[0]!;
  const staffToken = ((await (await signIn('/api/admin/login', owner.email)).json()) as { token: string }).token;
  // BUSY_PRELOAD=<seconds>: first, the scale section's other rows under load for that long each
  // (bench/scale.ts), so the busy hour meets the server as the full bench leaves it.
  const preload = Number(process.env.BUSY_PRELOAD ?? 0);
  if (preload > 0) {
    mark('preload');
    const memberCookie = sessionCookie(await signIn('/api/auth/login', reader.email));
    const staffResponse = await signIn('/api/admin/login', owner.email);
    const staffCookie = sessionCookie(staffResponse);
    const busiest = (await db.query<{ id: string }>('select id from community_posts order by replies_count desc limit 1')).rows[0]!.id;
    const rows: [string, Record<string, string>][] = [
      ['/community', {}],
      ['/api/community/posts', {}],
      ['/community', { cookie: memberCookie }],
      ['/api/community/feed', { cookie: memberCookie }],
      ['/api/community/feed?sort=top', { cookie: memberCookie }],
      ['/api/community/feed?q=open%20house', { cookie: memberCookie }],
      [`/community/${busiest}`, { cookie: memberCookie }],
      [`/api/community/posts/${busiest}`, { cookie: memberCookie }],
      ['/dashboard', { cookie: memberCookie }],
      ...['community', 'members', 'members?search=smith', 'activity', 'files', 'messages', 'courses', 'insights?weeks=52'].map(
        (page): [string, Record<string, string>] => [`/admin/dashboard/${page}`, { cookie: staffCookie }],
      ),
      ...[
        '/api/admin/members',
        '/api/admin/insights/engagement?weeks=52',
        '/api/admin/insights/revenue?months=24',
        '/api/admin/insights/retention?months=24',
      ].map((api): [string, Record<string, string>] => [api, { authorization: `Bearer ${staffToken}` }]),
    ];
    for (const [rowPath, headers] of rows) {
      const result = await load(`${site.url}${rowPath}`, { 'accept-encoding': 'br, gzip', ...headers }, preload);
      console.log(`  preload ${rowPath}: ${result.requests_per_second} req/s, p99 ${result.latency_p99_ms} ms, non-2xx ${result.non_2xx}`);
    }
    console.log((await metrics()).join('\n'));
  }
  // Earlier runs' goals of the busy hour's members are removed: a member may keep only so many, and
  // an actor without one logs nothing.
  await db.query(
    `delete from goals where title = 'Calls this week' and member_id in (
       select id from members where membership_tier = 'bronze' and community_suspended_at is null order by created_at offset 100 limit 540)`,
  );
  const before = await metrics();
  const result = await busyHour(site, db, cookieName, staffToken);
  mark('end');
  const after = await metrics();
  console.log(JSON.stringify(result));
  for (let index = 1; index < marks.length; index++) {
    const from = marks[index - 1]!;
    const to = marks[index]!;
    const seconds = (to.at - from.at) / 1000;
    const per = (value: number) => (value / seconds).toFixed(2);
    console.log(
      `phase ${from.phase}: ${seconds.toFixed(1)} s, cores busy: server ${per(to.cpu - from.cpu)}, load generator ${per(to.driver - from.driver)}, machine ${per(to.machine - from.machine)}`,
    );
  }
  const phases = Object.keys(scans);
  for (let index = 0; index + 1 < phases.length; index++) {
    const [from, to] = [scans[phases[index]!]!, scans[phases[index + 1]!]!];
    console.log(
      `scans in phase ${phases[index]}: ${JSON.stringify(Object.fromEntries(Object.keys(from).map((name) => [name, (to[name] ?? 0) - from[name]!])))}`,
    );
  }
  if (sample) {
    for (const [name, counts] of samples) {
      const total = counts.get('#samples') ?? 1;
      console.log(`\npg_stat_activity, phase ${name} (${total} samples): mean per sample`);
      for (const [what, count] of [...counts]
        .filter(([what]) => what !== '#samples')
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)) {
        console.log(`  ${(count / total).toFixed(2)}  ${what}`);
      }
    }
    console.log('\nmetrics before:\n' + before.join('\n') + '\nmetrics after:\n' + after.join('\n'));
  }
} finally {
  clearInterval(sampler);
  await db.end();
  await stopProcess(site.process);
}
const warnings = fs
  .readFileSync(logFile, 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('{'))
  .map((line) => (JSON.parse(line) as { msg?: string; level?: number }).msg ?? '')
  .reduce((counts, message) => counts.set(message, (counts.get(message) ?? 0) + 1), new Map<string, number>());
console.log('server log:', JSON.stringify([...warnings]));
