import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import type pg from 'pg';
import { hashSessionToken } from '../server/sessions/tokens.ts';
import { CONNECTIONS, type Site } from './lib.ts';

// The scale section's busy hour (bench/README.md): on the scale data set, ACTORS members act at once
// (lesson progress, likes, replies, RSVPs, goal logs, notifications read), each every few seconds,
// while other members read their dashboards and the community. The readers must keep at least half
// their quiet throughput, and the dashboards kept for them must stay kept (hit rate above 80%).

const ACTORS = 500;
const READERS = 40;
/** Each actor acts about this often (uniformly 0.5x to 1.5x): 500 members every 15 s is 33 actions a second. */
const ACT_EVERY_MS = 15_000;
const MEASURE_SECONDS = 15;
/**
 * The readers are measured this many times while the actors act, and each page's middle round
 * counts: one round's figure moved by 30 points or more from run to run (a burst of the actors'
 * writes on the discussions the readers' pages show).
 */
const BUSY_ROUNDS = 3;
/** The actors start spread over this, and are all under way before the busy measurement starts. */
const RAMP_MS = 10_000;

export const BUSY_HOUR_WANTED = { minShareOfQuiet: 0.5, minDashboardHitRate: 0.8 };

type Action = 'progress' | 'like' | 'reply' | 'rsvp' | 'goal' | 'read';
const ACTIONS: Action[] = ['progress', 'like', 'reply', 'rsvp', 'goal', 'read'];

interface Member {
  id: string;
  token: string;
}

export interface BusyHourResult {
  actors: number;
  readers: number;
  quiet: { dashboard_rps: number; community_rps: number };
  busy: { dashboard_rps: number; community_rps: number; dashboard_p99_ms: number; community_p99_ms: number };
  share_of_quiet: { dashboard: number; community: number };
  dashboard_hit_rate: number;
  actions: Record<Action, Record<string, number>>;
}

/** Sessions made in the database: the sign-in limits are per client address, and the bench is one address. */
async function openSessions(db: pg.Client, memberIds: string[]): Promise<Member[]> {
  const members = memberIds.map((id) => ({ id, token: randomBytes(32).toString('base64url') }));
  await db.query(
    `insert into sessions (token_hash, kind, member_id, expires_at)
     select hash, 'member', member_id::uuid, now() + interval '1 day' from unnest($1::text[], $2::text[]) as given(hash, member_id)`,
    [members.map((member) => hashSessionToken(member.token)), members.map((member) => member.id)],
  );
  return members;
}

async function ownPageLookups(site: Site): Promise<{ hits: number; misses: number }> {
  const text = await (await fetch(`${site.url}/metrics`)).text();
  const count = (result: string) => Number(new RegExp(`^own_page_lookups\\{result="${result}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { hits: count('hit'), misses: count('miss') };
}

/**
 * Readers of one page, each with their own session, from CONNECTIONS / 2 connections. Every
 * connection goes round all the readers, each from its own place in the round: given the same list,
 * autocannon's connections would walk it in step, all asking for the same member's page at the same
 * moment (one member reading their dashboard from 16 tabs at once, before the first answer is made),
 * and a round would take each member's page as many renders as there are connections.
 */
function readLoad(site: Site, path: string, cookies: string[]) {
  const requests = cookies.map((cookie) => ({ method: 'GET' as const, path, headers: { cookie, 'accept-encoding': 'br, gzip' } }));
  const connections = Math.max(1, CONNECTIONS / 2);
  let connection = 0;
  return autocannon({
    url: site.url,
    connections,
    duration: MEASURE_SECONDS,
    requests,
    setupClient: (client) => {
      const from = Math.floor((connection++ * requests.length) / connections) % requests.length;
      client.setRequests([...requests.slice(from), ...requests.slice(0, from)]);
    },
  });
}

async function readBoth(site: Site, cookies: string[]) {
  const [dashboard, community] = await Promise.all([readLoad(site, '/dashboard', cookies), readLoad(site, '/community', cookies)]);
  return { dashboard, community };
}

/** The coming sessions a Bronze member may go to; the scale data set has none, so staff schedule one. */
async function comingSessions(site: Site, member: Member, staffToken: string): Promise<string[]> {
  const listed = async () =>
    (
      (await (await fetch(`${site.url}/api/coaching/sessions`, { headers: { authorization: `Bearer ${member.token}` } })).json()) as {
        id: string;
      }[]
    ).map((session) => session.id);
  const found = await listed();
  if (found.length > 0) return found;
  const staff = { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' };
  const [host] = (await (await fetch(`${site.url}/api/admin/coaching/hosts`, { headers: staff })).json()) as { id: string }[];
  if (!host) return [];
  const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  const scheduled = await fetch(`${site.url}/api/admin/coaching/series`, {
    method: 'POST',
    headers: staff,
    body: JSON.stringify({
      title: 'Busy hour live coaching',
      host_staff_id: host.id,
      date: tomorrow,
      time: '12:00',
      time_zone: 'UTC',
      duration_minutes: 60,
      min_tier: 'bronze',
      capacity: 100,
      join_url: 'https://meet.example.com/busy-hour',
    }),
  });
  if (!scheduled.ok) throw new Error(`Could not schedule the busy hour's session: ${scheduled.status} ${await scheduled.text()}`);
  return listed();
}

export async function busyHour(site: Site, db: pg.Client, sessionCookieName: string, staffToken: string): Promise<BusyHourResult> {
  const ids = (
    await db.query<{ id: string }>(
      `select id from members where membership_tier = 'bronze' and community_suspended_at is null
       order by created_at offset 100 limit $1`,
      [ACTORS + READERS],
    )
  ).rows.map((row) => row.id);
  if (ids.length < ACTORS + READERS) throw new Error('The scale data set lacks the Bronze members the busy hour needs');
  const everyone = await openSessions(db, ids);
  const readers = everyone.slice(0, READERS);
  const actors = everyone.slice(READERS);
  const cookies = readers.map((reader) => `${sessionCookieName}=${reader.token}`);

  const call = (member: Member, method: string, path: string, body?: unknown) =>
    fetch(`${site.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${member.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });

  // What the actors act on: a free course's lessons, the newest discussions, the coming sessions.
  const course = (await db.query<{ id: string }>("select id from courses where status = 'published' and tier = 'free' order by id limit 1"))
    .rows[0];
  if (!course) throw new Error('The scale data set has no published free course');
  const lessons = (await db.query<{ id: string }>('select id from lessons where course_id = $1 order by position', [course.id])).rows;
  const discussions = (
    await db.query<{ id: string }>(
      "select id from community_posts where space = 'general' and hidden_at is null order by created_at desc limit 2000",
    )
  ).rows.map((row) => row.id);
  const sessions = await comingSessions(site, actors[0]!, staffToken);

  // Every actor is enrolled and has a goal before the hour starts.
  const goals = new Map<string, string>();
  for (let start = 0; start < actors.length; start += 25) {
    await Promise.all(
      actors.slice(start, start + 25).map(async (actor) => {
        await call(actor, 'POST', `/api/courses/${course.id}/enrol`);
        const made = await fetch(`${site.url}/api/goals`, {
          method: 'POST',
          headers: { authorization: `Bearer ${actor.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'count', title: 'Calls this week', target: 50, unit: 'calls', period: 'week' }),
        });
        if (made.ok) goals.set(actor.id, ((await made.json()) as { id: string }).id);
        else await made.arrayBuffer();
      }),
    );
  }

  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  const actions = Object.fromEntries(ACTIONS.map((action) => [action, {}])) as BusyHourResult['actions'];
  const counted = (action: Action, status: number | string) => {
    actions[action][String(status)] = (actions[action][String(status)] ?? 0) + 1;
  };
  const act = async (actor: Member, turn: number) => {
    const action = ACTIONS[turn % ACTIONS.length]!;
    const status = await (async () => {
      switch (action) {
        case 'progress':
          if (lessons.length === 0) return 'no lesson';
          return call(actor, 'PUT', `/api/lessons/${pick(lessons).id}/position`, { position_seconds: 30 + turn, duration_seconds: 600 });
        case 'like':
          return call(actor, turn % 4 === 1 ? 'DELETE' : 'PUT', `/api/community/posts/${pick(discussions)}/like`);
        case 'reply':
          return call(actor, 'POST', `/api/community/posts/${pick(discussions)}/replies`, {
            body: `Busy hour reply ${turn} ${randomBytes(3).toString('hex')}`,
          });
        case 'rsvp':
          if (sessions.length === 0) return 'no session';
          // Each actor goes to one session, and changes their mind every other time.
          return call(
            actor,
            turn % 12 === 3 ? 'POST' : 'DELETE',
            `/api/coaching/sessions/${sessions[Number.parseInt(actor.id.slice(0, 6), 16) % sessions.length]}/rsvp`,
          );
        case 'goal': {
          const goal = goals.get(actor.id);
          return goal ? call(actor, 'POST', `/api/goals/${goal}/progress`, { amount: 1 }) : 'no goal';
        }
        case 'read':
          return call(actor, 'POST', '/api/notifications/read', {});
      }
    })().catch((error: unknown) => `failed: ${(error as Error).message}`);
    counted(action, status);
  };

  console.log(`  busy hour: ${READERS} readers of /dashboard and /community, quiet, for ${MEASURE_SECONDS} s`);
  await readBoth(site, cookies); // warm: every reader's dashboard rendered and kept once
  const quiet = await readBoth(site, cookies);

  let busy = true;
  const running = actors.map(async (actor, index) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * RAMP_MS));
    for (let turn = index; busy; turn += 1) {
      await act(actor, turn);
      await new Promise((resolve) => setTimeout(resolve, ACT_EVERY_MS * (0.5 + Math.random())));
    }
  });
  await new Promise((resolve) => setTimeout(resolve, RAMP_MS));
  console.log(`  busy hour: ${ACTORS} members acting, every ${ACT_EVERY_MS / 1000} s or so each; the readers again`);
  const before = await ownPageLookups(site);
  const rounds: Awaited<ReturnType<typeof readBoth>>[] = [];
  for (let round = 0; round < BUSY_ROUNDS; round++) rounds.push(await readBoth(site, cookies));
  const after = await ownPageLookups(site);
  const middle = (page: 'dashboard' | 'community') =>
    rounds.map((round) => round[page]).sort((a, b) => a.requests.average - b.requests.average)[Math.floor(BUSY_ROUNDS / 2)]!;
  const loaded = { dashboard: middle('dashboard'), community: middle('community') };
  busy = false;
  await Promise.all(running);

  const rps = (result: autocannon.Result) => Math.round(result.requests.average);
  const share = (busyRps: number, quietRps: number) => Math.round((busyRps / Math.max(1, quietRps)) * 1000) / 1000;
  const hits = after.hits - before.hits;
  const lookups = hits + after.misses - before.misses;
  const result: BusyHourResult = {
    actors: ACTORS,
    readers: READERS,
    quiet: { dashboard_rps: rps(quiet.dashboard), community_rps: rps(quiet.community) },
    busy: {
      dashboard_rps: rps(loaded.dashboard),
      community_rps: rps(loaded.community),
      dashboard_p99_ms: loaded.dashboard.latency.p99,
      community_p99_ms: loaded.community.latency.p99,
    },
    share_of_quiet: {
      dashboard: share(rps(loaded.dashboard), rps(quiet.dashboard)),
      community: share(rps(loaded.community), rps(quiet.community)),
    },
    dashboard_hit_rate: Math.round((hits / Math.max(1, lookups)) * 1000) / 1000,
    actions,
  };
  console.log(
    `  busy hour: /dashboard ${result.busy.dashboard_rps} req/s (quiet ${result.quiet.dashboard_rps}), /community ${result.busy.community_rps} req/s ` +
      `(quiet ${result.quiet.community_rps}); dashboards kept ${(result.dashboard_hit_rate * 100).toFixed(1)}% of lookups; actions ${JSON.stringify(actions)}`,
  );
  return result;
}
