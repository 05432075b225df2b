import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../common/limits.ts';
import { analyzeScaleTables, SCALE_EMAIL_DOMAIN, SCALE_PASSWORD, seedScaleData, type ScaleVolume } from '../../db/seed/scale.ts';
import { INVALID_CURSOR } from '../../server/lists/keyset.ts';
import { hashPassword } from '../../server/sessions/passwords.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// The scale guard (docs/decisions/013): with a real business's data in miniature, every list answers
// one page in its order, its cursor leads to the next rows with none lost or repeated, and each
// query it sends is served by an index. A list read whole, or a query that needs a sequential scan
// of a big table, passes at demo size and fails here.

/** A few thousand rows per big table: enough for the planner to prefer indexes, seeded in seconds. */
const VOLUME: ScaleVolume = {
  members: 2_000,
  posts: 5_000,
  replyDraws: 15_000,
  likeDraws: 10_000,
  postReports: 300,
  replyReports: 200,
  sessions: 3_000,
  auditEntries: 1_000,
  outboxMessages: 2_000,
  uploadedFiles: 400,
  contactMessages: 300,
};

/** Tables that grow with the business: a query must never need to read one whole. */
const BIG_TABLES = new Set([
  'members',
  'community_posts',
  'community_replies',
  'community_likes',
  'community_reports',
  'enrolments',
  'lesson_progress',
  'certificates',
  'audit_log',
  'outbox_messages',
  'sessions',
  'uploaded_files',
  'contact_messages',
]);

let t: TestApp;
let member: MemberLogin;
let staff: { authorization: string };
/** The general discussion with the most replies: its thread is several pages long. */
let busiestPost: string;

const rowsOf = async <Row>(query: SQL) => ((await t.db.execute(query)) as unknown as { rows: Row[] }).rows;
const client = () => (t.db as unknown as { $client: unknown }).$client;

/** The member's own lists, made long enough to page, with several rows on the same moment (the id breaks the tie). */
async function giveLongLists({ memberId, email, name }: MemberLogin) {
  const courses = 45;
  await t.db.execute(sql`
    insert into courses (id, title, description, category, tier, thumbnail, duration, instructor, status)
    select 'guard-course-' || lpad(g::text, 2, '0'), 'Guard course ' || g, 'A course of the scale guard.', 'sales', 'free',
           '/images/guard.webp', '1h', 'Guard', 'archived'
    from generate_series(1, ${courses}) as g`);
  await t.db.execute(sql`
    insert into enrolments (member_id, course_id, enrolled_at)
    select ${memberId}, 'guard-course-' || lpad(g::text, 2, '0'), now() - interval '1 day' * (g / 3)
    from generate_series(1, ${courses}) as g`);
  await t.db.execute(sql`
    insert into certificates (member_id, course_id, code, member_name, course_title, issued_at)
    select ${memberId}, 'guard-course-' || lpad(g::text, 2, '0'), 'RP-GARD-' || lpad(g::text, 4, '0'), ${name}, 'Guard course ' || g,
           now() - interval '1 day' * (g / 3)
    from generate_series(1, ${courses}) as g`);
  // Discussions of the member's (one hidden, one in the Gold Lounge) and replies to them: some
  // hidden, some the member's own, none of which the member's list shows.
  await t.db.execute(sql`
    insert into community_posts (id, author_id, user_name, author_tier, space, title, content, created_at, hidden_at)
    select 'guard-post-' || g, ${memberId}, ${name}, 'gold', case when g = 4 then 'gold' else 'general' end,
           'Guard discussion ' || g, 'Open house questions from the guard.', now() - interval '30 days', case when g = 3 then now() end
    from generate_series(1, 4) as g`);
  await t.db.execute(sql`
    insert into community_replies (post_id, author_id, author_name, author_tier, body, created_at, hidden_at)
    select 'guard-post-' || (1 + g % 4), author.id, author.name, author.membership_tier, 'Guard reply ' || g,
           now() - interval '1 hour' * (g / 3), case when g % 10 = 0 then now() end
    from generate_series(1, 120) as g
    join members as author on author.email = case when g % 15 = 0 then ${email} else 'member' || g || ${`@${SCALE_EMAIL_DOMAIN}`} end`);
}

/**
 * The lists staff author by hand (courses, resources) and the staff accounts: a few dozen rows, made
 * more than a page, with ties in their order (the same position and title, the same moment).
 */
async function giveLongStaffLists() {
  const rows = PAGE_SIZE.staffList + 15;
  await t.db.execute(sql`
    insert into resources (id, title, description, resource_type, tier_required, position)
    select 'guard-resource-' || lpad(g::text, 3, '0'), 'Guard resource ' || (g % 7), 'A resource of the scale guard.', 'ebook', 'silver', 1000
    from generate_series(1, ${rows}) as g`);
  await t.db.execute(sql`
    insert into staff_accounts (email, password_hash, role, created_at)
    select 'guard-editor-' || g || ${`@${SCALE_EMAIL_DOMAIN}`}, 'not a password hash', 'editor', now() - interval '1 day' * (g / 3)
    from generate_series(1, ${rows}) as g`);
}

beforeAll(async () => {
  t = await createTestApp();
  await seedScaleData(t.db, await hashPassword(SCALE_PASSWORD), () => {}, VOLUME);
  member = await t.loginAs('gold', { name: 'Guard Gold' });
  staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  await giveLongLists(member);
  await giveLongStaffLists();
  // More pinned discussions than the first page shows (in the general space), pinned at different moments.
  await t.db.execute(sql`
    update community_posts set pinned_at = created_at + interval '1 hour'
    where id in (
      select id from (select id, space, row_number() over (partition by space order by created_at desc) as n from community_posts where hidden_at is null) as newest
      where n <= case space when 'general' then 7 else 2 end)`);
  const [busiest] = await rowsOf<{ id: string }>(sql`
    select id from community_posts where space = 'general' and hidden_at is null order by replies_count desc, id limit 1`);
  busiestPost = busiest!.id;
  await analyzeScaleTables(t.db);
}, 120_000);
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------
// The lists, and the order each one promises (as SQL over the same rows).

type Who = 'visitor' | 'member' | 'staff';
interface List {
  name: string;
  /** The first page's address. */
  url: () => string;
  who: Who;
  /** Rows per page, and the pinned ones the first page may add. */
  size: number;
  pinned?: number;
  /** Array answers name the next page in `Link`; object answers carry the rows in this field and `next_cursor`. */
  items?: 'posts' | 'replies';
  /** The query parameter that carries the cursor. */
  param?: 'before' | 'after';
  /** What identifies a row in the answer. */
  key?: string;
  /** The table the list reads: a query on it must be among those the request sends. */
  table: string;
  /** The index its pages are read through, on a table too small to be among the big ones (whose sequential scans are refused). */
  index?: string;
  /** The list's rows in its order, as `id`, the first `limit` of them. */
  expected: (limit: number) => SQL;
  /** Followed to its last page (a short list), rather than for three pages. */
  toEnd?: boolean;
  /** What every row of a search must show. */
  matches?: (row: Record<string, unknown>) => boolean;
}

const visiblePosts = (space: 'general' | 'gold') => sql`space = ${space} and hidden_at is null`;
const matching = (words: string) => sql`search @@ websearch_to_tsquery('english', ${words})`;
/** Pinned discussions first (the most recently pinned first, a few), then the newest. */
const newestIn = (space: 'general' | 'gold') => (limit: number) => sql`
  select id from (
    (select id, 0 as part, pinned_at as at, '' as tie from community_posts
     where ${visiblePosts(space)} and pinned_at is not null order by pinned_at desc limit ${PAGE_SIZE.communityPinned})
    union all
    (select id, 1, created_at, id from community_posts
     where ${visiblePosts(space)} and pinned_at is null order by created_at desc, id desc limit ${limit})
  ) as page order by part, at desc, tie desc limit ${limit}`;
const topIn = (space: 'general' | 'gold') => (limit: number) => sql`
  select id from community_posts where ${visiblePosts(space)}
  order by likes_count desc, replies_count desc, created_at desc, id desc limit ${limit}`;
const bestMatchesIn = (space: 'general' | 'gold', words: string) => (limit: number) => sql`
  select id from community_posts where ${visiblePosts(space)} and ${matching(words)}
  order by ts_rank_cd(search, websearch_to_tsquery('english', ${words}))::float8 desc, id desc limit ${limit}`;
const staffDiscussions = (words?: string) => (limit: number) => sql`
  select id from community_posts where ${words ? matching(words) : sql`true`} order by created_at desc, id desc limit ${limit}`;
const membersMatching = (part?: string) => (limit: number) => sql`
  select id from members where ${part ? sql`lower(name) like ${`%${part}%`} or lower(email) like ${`%${part}%`}` : sql`true`}
  order by created_at desc, id desc limit ${limit}`;
const filesMatching = (part?: string) => (limit: number) => sql`
  select id from uploaded_files where ${part ? sql`lower(filename) like ${`%${part}%`}` : sql`true`}
  order by created_at desc, id desc limit ${limit}`;
const fieldsOf = (row: Record<string, unknown>, ...fields: string[]) => fields.map((field) => String(row[field] ?? '')).join(' ');

const COMMUNITY_SEARCH = 'cold calling';
/** A few dozen discussions: a topic in a small town. */
const RARE_SEARCH = 'short sales town or cold calling town';
const feed = (query: string) => () => `/api/community/feed?${query}`;

const LISTS: List[] = [
  // The community: the spec's preview (the home page and the dashboard read it) and the member feed.
  {
    name: 'community preview, visitor',
    url: () => '/api/community/posts',
    who: 'visitor',
    size: PAGE_SIZE.communityFeed,
    pinned: PAGE_SIZE.communityPinned,
    table: 'community_posts',
    expected: newestIn('general'),
  },
  {
    name: 'community preview, member',
    url: () => '/api/community/posts',
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    pinned: PAGE_SIZE.communityPinned,
    table: 'community_posts',
    expected: newestIn('general'),
  },
  {
    name: 'feed, newest',
    url: feed('space=general&sort=newest'),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    pinned: PAGE_SIZE.communityPinned,
    items: 'posts',
    table: 'community_posts',
    expected: newestIn('general'),
  },
  {
    name: 'feed, newest in the Gold Lounge',
    url: feed('space=gold&sort=newest'),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    pinned: PAGE_SIZE.communityPinned,
    items: 'posts',
    table: 'community_posts',
    expected: newestIn('gold'),
    toEnd: true,
  },
  {
    name: 'feed, top',
    url: feed('space=general&sort=top'),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    items: 'posts',
    table: 'community_posts',
    expected: topIn('general'),
  },
  {
    name: 'feed, top in the Gold Lounge',
    url: feed('space=gold&sort=top'),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    items: 'posts',
    table: 'community_posts',
    expected: topIn('gold'),
    toEnd: true,
  },
  {
    name: 'feed, search',
    url: feed(`space=general&q=${encodeURIComponent(COMMUNITY_SEARCH)}`),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    items: 'posts',
    table: 'community_posts',
    expected: bestMatchesIn('general', COMMUNITY_SEARCH),
    matches: (post) => /cold/i.test(fieldsOf(post, 'title', 'content')),
  },
  {
    name: 'feed, a rare search',
    url: feed(`space=general&q=${encodeURIComponent(RARE_SEARCH)}`),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    items: 'posts',
    table: 'community_posts',
    expected: bestMatchesIn('general', RARE_SEARCH),
    toEnd: true,
    matches: (post) => /town/i.test(fieldsOf(post, 'title', 'content')),
  },
  {
    name: "a discussion's replies",
    url: () => `/api/community/posts/${busiestPost}`,
    who: 'member',
    size: PAGE_SIZE.communityReplies,
    items: 'replies',
    param: 'after',
    table: 'community_replies',
    expected: (limit) => sql`
      select id from community_replies where post_id = ${busiestPost} and hidden_at is null order by created_at, id limit ${limit}`,
    toEnd: true,
  },
  // The member's own lists (the dashboard).
  {
    name: 'replies to my discussions',
    url: () => '/api/me/community/replies',
    who: 'member',
    size: PAGE_SIZE.memberList,
    key: 'reply_id',
    table: 'community_replies',
    expected: (limit) => sql`
      select reply.id from community_replies as reply join community_posts as post on post.id = reply.post_id
      where post.author_id = ${member.memberId} and post.hidden_at is null and reply.hidden_at is null
        and reply.author_id is distinct from ${member.memberId}
      order by reply.created_at desc, reply.id desc limit ${limit}`,
    toEnd: true,
  },
  {
    name: 'my enrolments',
    url: () => '/api/me/enrolments',
    who: 'member',
    size: PAGE_SIZE.memberList,
    table: 'enrolments',
    expected: (limit) => sql`
      select course_id as id from enrolments where member_id = ${member.memberId} order by enrolled_at desc, course_id desc limit ${limit}`,
    toEnd: true,
  },
  {
    name: 'my certificates',
    url: () => '/api/me/certificates',
    who: 'member',
    size: PAGE_SIZE.memberList,
    key: 'code',
    table: 'certificates',
    expected: (limit) => sql`
      select code as id from certificates where member_id = ${member.memberId} order by issued_at desc, certificates.id desc limit ${limit}`,
    toEnd: true,
  },
  // Staff lists.
  {
    name: 'report queue',
    url: () => '/api/admin/community/reports',
    who: 'staff',
    size: PAGE_SIZE.moderation,
    param: 'after',
    table: 'community_reports',
    expected: (limit) => sql`select id from community_reports where resolved_at is null order by created_at, id limit ${limit}`,
    toEnd: true,
  },
  {
    name: 'staff discussions',
    url: () => '/api/admin/community/posts',
    who: 'staff',
    size: PAGE_SIZE.moderation,
    table: 'community_posts',
    expected: staffDiscussions(),
  },
  {
    name: 'staff discussions, search',
    url: () => '/api/admin/community/posts?search=beach',
    who: 'staff',
    size: PAGE_SIZE.moderation,
    table: 'community_posts',
    expected: staffDiscussions('beach'),
    toEnd: true,
  },
  {
    name: 'members',
    url: () => '/api/admin/members',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'members',
    expected: membersMatching(),
  },
  {
    name: 'members, search',
    url: () => '/api/admin/members?search=Member12',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'members',
    expected: membersMatching('member12'),
    toEnd: true,
    matches: (row) => fieldsOf(row, 'name', 'email').toLowerCase().includes('member12'),
  },
  {
    name: 'activity',
    url: () => '/api/admin/activity',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'audit_log',
    expected: (limit) => sql`select id from audit_log order by id desc limit ${limit}`,
    toEnd: true,
  },
  {
    name: 'files',
    url: () => '/api/admin/files',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'uploaded_files',
    expected: filesMatching(),
  },
  {
    name: 'files, search',
    url: () => '/api/admin/files?search=PDF',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'uploaded_files',
    expected: filesMatching('pdf'),
    toEnd: true,
    matches: (row) => fieldsOf(row, 'filename').toLowerCase().includes('pdf'),
  },
  {
    name: 'messages',
    url: () => '/api/admin/messages',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'contact_messages',
    expected: (limit) => sql`select id from contact_messages order by created_at desc, id desc limit ${limit}`,
    toEnd: true,
  },
  // What staff author by hand, in the catalogue's order, and the staff accounts, oldest first.
  {
    name: 'staff courses',
    url: () => '/api/admin/courses',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'courses',
    index: 'courses_position_idx',
    expected: (limit) => sql`select id from courses order by position, title, id limit ${limit}`,
    toEnd: true,
  },
  {
    name: 'staff resources',
    url: () => '/api/admin/resources',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'resources',
    index: 'resources_position_idx',
    expected: (limit) => sql`select id from resources order by position, title, id limit ${limit}`,
    toEnd: true,
  },
  {
    name: 'staff accounts',
    url: () => '/api/admin/staff',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'staff_accounts',
    index: 'staff_accounts_created_idx',
    expected: (limit) => sql`select id from staff_accounts order by created_at, id limit ${limit}`,
    toEnd: true,
  },
];

// ---------------------------------------------------------------------------------------------
// The SQL a request sends, and the plan of each statement.

interface Statement {
  text: string;
  params: unknown[];
}

/** Runs `work` while recording every select sent through the database client (pg Pool or PGlite). */
async function recordingSelects<T>(work: () => Promise<T>): Promise<{ result: T; selects: Statement[] }> {
  const target = client() as { query?: (...args: unknown[]) => unknown };
  const own = Object.hasOwn(target, 'query');
  const original = target.query!;
  const selects: Statement[] = [];
  target.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const config = first as { text?: string; values?: unknown[] };
    const statement = typeof first === 'string' ? first : (config.text ?? '');
    if (/^\s*select\b/i.test(statement)) selects.push({ text: statement, params: Array.isArray(second) ? second : (config.values ?? []) });
    return original.apply(this, args);
  };
  try {
    return { result: await work(), selects };
  } finally {
    // The pool's own wrapper (db/client.ts) goes back; PGlite's method is its prototype's again.
    if (own) target.query = original;
    else delete target.query;
  }
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

/** The plan of a statement with its parameters, sequential scans off: one left means no index can serve it. */
async function planOf({ text, params }: Statement): Promise<PlanNode> {
  const explain = `explain (format json) ${text}`;
  type Explained = { 'QUERY PLAN': { Plan: PlanNode }[] };
  if (t.database.kind === 'postgres') {
    const connection = await (client() as pg.Pool).connect();
    try {
      await connection.query('begin');
      await connection.query('set local enable_seqscan = off');
      const { rows } = await connection.query<Explained>(explain, params);
      return rows[0]!['QUERY PLAN'][0]!.Plan;
    } finally {
      await connection.query('rollback');
      connection.release();
    }
  }
  return (client() as PGlite).transaction(async (tx) => {
    await tx.query('set local enable_seqscan = off');
    const { rows } = await tx.query<Explained>(explain, params);
    return rows[0]!['QUERY PLAN'][0]!.Plan;
  });
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The plan as indented lines, for a failure message. */
const describePlan = (node: PlanNode, depth = 0): string[] => [
  `${'  '.repeat(depth)}${node['Node Type']}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}` +
    `${node['Index Cond'] ? ` (${node['Index Cond']})` : ''}${node.Filter ? ` filter ${node.Filter}` : ''}`,
  ...(node.Plans ?? []).flatMap((child) => describePlan(child, depth + 1)),
];

/** Every select the request sent that reads a big table whole: the statement and its plan. */
async function sequentialScans(selects: Statement[]): Promise<string[]> {
  const found: string[] = [];
  for (const statement of selects) {
    const plan = await planOf(statement);
    const scanned = nodesOf(plan).filter((node) => node['Node Type'] === 'Seq Scan' && BIG_TABLES.has(node['Relation Name'] ?? ''));
    if (scanned.length > 0) {
      found.push(
        `reads ${scanned.map((node) => node['Relation Name']).join(', ')} whole:\n${statement.text}\nparams ${JSON.stringify(statement.params)}\n` +
          describePlan(plan).join('\n'),
      );
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// One page as a client reads it, and the whole check of a list.

const headersOf = (who: Who) => ({ visitor: {}, member: member.headers, staff })[who];

interface Page {
  keys: string[];
  rows: Record<string, unknown>[];
  /** The address of the next page, or null on the last. */
  next: string | null;
  /** The cursor itself, as the client got it. */
  cursor: string | null;
}

/** The list's address with a cursor in its query (as `Link` and the pages write it). */
const withCursor = (list: List, cursor: string) => {
  const address = new URL(list.url(), 'http://site.invalid');
  address.searchParams.set(list.param ?? 'before', cursor);
  return `${address.pathname}${address.search}`;
};

async function readPage(list: List, url: string): Promise<{ page: Page; selects: Statement[] }> {
  const { result: response, selects } = await recordingSelects(() => t.app.inject({ method: 'GET', url, headers: headersOf(list.who) }));
  expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
  const param = list.param ?? 'before';
  let rows: Record<string, unknown>[];
  let next: string | null = null;
  let cursor: string | null = null;
  if (list.items) {
    const body = response.json() as Record<string, unknown>;
    rows = body[list.items] as Record<string, unknown>[];
    cursor = body.next_cursor as string | null;
    expect(response.headers.link).toBeUndefined();
    if (cursor) next = withCursor(list, cursor);
  } else {
    rows = response.json() as Record<string, unknown>[];
    const link = response.headers.link as string | undefined;
    if (link) {
      const [, address] = /^<([^>]+)>; rel="next"$/.exec(link) ?? [];
      expect(address, `Link header ${link}`).toBeDefined();
      next = address!;
      cursor = new URL(next, 'http://site.invalid').searchParams.get(param);
      expect(cursor, `the next page goes on '${param}': ${link}`).toBeTruthy();
    }
  }
  expect(Array.isArray(rows)).toBe(true);
  return { page: { keys: rows.map((row) => String(row[list.key ?? 'id'])), rows, next, cursor }, selects };
}

/** The values of a cursor, changed one by one: cursors are base64url JSON (server/lists/keyset.ts). */
function changedCursor(cursor: string, change: (value: unknown) => unknown): string {
  const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
  return Buffer.from(JSON.stringify(values.map(change))).toString('base64url');
}
const isMoment = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2} /.test(value);

/**
 * Cursors no server gave, from the list's real one, with the answers each may get: never a 500.
 * A key of the right kind that cannot be (a moment that does not exist, a negative count) is a 400;
 * one of the wrong kind (text where an id was, a count beyond any column) is a 400 or, where it is
 * still a possible key, a page.
 */
const tamperedCursors = (cursor: string): [string, number[]][] => [
  ['abc', [400]],
  [Buffer.from('["x"]').toString('base64url'), [400]],
  [changedCursor(cursor, (value) => (typeof value === 'number' ? -1 : isMoment(value) ? '2024-13-45 25:61:61+00' : value)), [400]],
  [changedCursor(cursor, (value) => (typeof value === 'number' ? 2 ** 40 : isMoment(value) ? value : 'not-an-id')), [200, 400]],
];

async function checkList(list: List) {
  const pages: Page[] = [];
  const recorded: Statement[] = [];
  const scans: string[] = [];
  let url: string | null = list.url();
  // Three pages, or every page of a short list (never more than 30: the end must come).
  while (url && pages.length < (list.toEnd ? 30 : 3)) {
    const { page, selects } = await readPage(list, url);
    // The first page and one cursor page send every query of the list; their plans must use indexes.
    if (pages.length < 2) {
      recorded.push(...selects);
      scans.push(...(await sequentialScans(selects)).map((scan) => `GET ${url} ${scan}`));
    }
    pages.push(page);
    url = page.next;
  }
  expect(
    recorded.some((statement) => statement.text.includes(`from "${list.table}"`)),
    `the query of ${list.table} is recorded`,
  ).toBe(true);

  // Bounded: a page is never longer than its size (the first may add the pinned discussions), and
  // only a full page names another.
  pages.forEach((page, index) => {
    const most = list.size + (index === 0 ? (list.pinned ?? 0) : 0);
    expect.soft(page.keys.length, `page ${index + 1} of ${list.name}`).toBeLessThanOrEqual(most);
    if (page.next) expect.soft(page.keys.length, `page ${index + 1} of ${list.name} is full`).toBeGreaterThanOrEqual(list.size);
  });
  expect(pages.length, `${list.name} spans several pages`).toBeGreaterThan(1);

  // In order, with nothing repeated or skipped from one page to the next.
  const shown = pages.flatMap((page) => page.keys);
  const expected = (await rowsOf<{ id: string | number }>(list.expected(shown.length + 1))).map((row) => String(row.id));
  expect.soft(shown, `${list.name} in order`).toEqual(expected.slice(0, shown.length));
  if (list.toEnd) {
    expect.soft(pages.at(-1)!.next, `${list.name} ends`).toBeNull();
    expect.soft(expected, `${list.name} showed every row`).toHaveLength(shown.length);
  }
  if (list.matches) {
    const misses = pages.flatMap((page) => page.rows).filter((row) => !list.matches!(row));
    expect.soft(misses, `${list.name}: rows that do not match`).toEqual([]);
  }

  const refusals: string[] = [];
  for (const [cursor, answers] of tamperedCursors(pages[0]!.cursor!)) {
    const address = withCursor(list, cursor);
    const response = await t.app.inject({ method: 'GET', url: address, headers: headersOf(list.who) });
    const refused = response.statusCode === 400;
    // A refusal says what to do: start again from the first page.
    if (!answers.includes(response.statusCode) || (refused && response.json().detail !== INVALID_CURSOR)) {
      const values = Buffer.from(cursor, 'base64url').toString();
      refusals.push(
        `GET ${address} (cursor ${values}) answered ${response.statusCode}, not ${answers.join(' or ')}: ${response.body.slice(0, 100)}`,
      );
    }
  }
  expect.soft(refusals.join('\n'), `${list.name}: tampered cursors`).toBe('');

  expect(scans.join('\n\n'), `${list.name}: queries that read a big table whole`).toBe('');

  if (list.index) {
    const reading = recorded.filter((statement) => statement.text.includes(`from "${list.table}"`));
    const indexes = (await Promise.all(reading.map(planOf))).flatMap(nodesOf).flatMap((node) => node['Index Name'] ?? []);
    expect(indexes, `${list.name}: the pages are read through ${list.index}`).toContain(list.index);
  }
}

describe('every list at scale', () => {
  it.each(LISTS.map((list) => [list.name, list] as const))('%s: one page at a time, in order, on an index', async (_name, list) => {
    await checkList(list);
  });
});
