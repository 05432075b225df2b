import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EPISODES_PER_PAGE, NOTIFICATIONS, PAGE_SIZE, SEARCH_WINDOW } from '../../common/limits.ts';
import { analyzeScaleTables, SCALE_EMAIL_DOMAIN, SCALE_PASSWORD, seedScaleData, type ScaleVolume } from '../../db/seed/scale.ts';
import { INVALID_CURSOR } from '../../server/lists/keyset.ts';
import { hashPassword } from '../../server/sessions/passwords.ts';
import { startPageApp, type PageApp } from '../helpers/page-app.ts';
import {
  analyzedPlan,
  describePlan,
  nodesOf,
  recordingReads,
  rowsRead,
  tablesOfIndexes,
  type PlanNode,
  type Statement,
} from '../helpers/query-plans.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// The scale guard (docs/decisions/013): with a real business's data in miniature, every list answers
// one page in its order, its cursor leads to the next rows with none lost or repeated, and each
// query it sends is planned on an index by PostgreSQL's own choice (default settings, the tables
// analysed) and, run, reads about a page of rows from any big table, never the table. A list read
// whole, or a query that walks a big table, passes at demo size and fails here.

/** A few thousand rows per big table: enough for the planner to prefer indexes, seeded in seconds. */
const VOLUME: ScaleVolume = {
  members: 8_000,
  posts: 5_000,
  replyDraws: 15_000,
  likeDraws: 10_000,
  postReports: 800,
  replyReports: 400,
  sessions: 3_000,
  auditEntries: 3_000,
  outboxMessages: 2_000,
  uploadedFiles: 2_500,
  contactMessages: 2_500,
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
  'notifications',
]);

/**
 * The rows any one node of a plan may read from a big table (over all its loops, those its filter
 * threw away included): twenty pages' worth and a little more. A page read along its index reads
 * about a page; a walk of a table of a few thousand rows reads far more (each list's table is
 * checked to hold more than its bound, so a walk cannot pass).
 */
const READ_PAGES = 20;
const READ_SLACK = 100;
const boundOf = (list: { size: number; pinned?: number }) => READ_PAGES * (list.size + (list.pinned ?? 0)) + READ_SLACK;
/** A search of a common word ranks the newest window of its matches (common/limits.ts): at most a window. */
const WINDOW_BOUND = SEARCH_WINDOW + READ_SLACK;

/**
 * The lists staff author by hand (courses, resources, the podcast, the staff accounts) are filled to
 * this many rows, so that the planner's own choice between their index and a scan means something.
 */
const AUTHORED_ROWS = 1_500;

let t: TestApp;
let member: MemberLogin;
let staff: { authorization: string };
/** The general discussion with the most replies: its thread is several pages long. */
let busiestPost: string;
/** The table of each index: a Bitmap Index Scan names only its index. */
let indexTables: Map<string, string>;

const rowsOf = async <Row>(query: SQL) => ((await t.db.execute(query)) as unknown as { rows: Row[] }).rows;

/** A word no discussion holds, and one that a few dozen hold, spread over three years. */
const NO_MATCH_WORD = 'zyzzogeton';
const RARE_WORD = 'quokka';
const RARE_POSTS = PAGE_SIZE.communityFeed + 7;
/** The guard member's discussions, and the replies they got. */
const MY_DISCUSSIONS = 40;
const REPLIES_TO_ME = 950;
/** The guard member's notifications: several pages of the bell's list. */
const MY_NOTIFICATIONS = 400;

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
  // hidden, some the member's own, none of which the member's list shows. The member is as busy as
  // the busiest of a real community (the scale data set's starts 280 discussions and has 950 replies).
  await t.db.execute(sql`
    insert into community_posts (id, author_id, user_name, author_tier, space, title, content, created_at, hidden_at)
    select 'guard-post-' || g, ${memberId}, ${name}, 'gold', case when g = 4 then 'gold' else 'general' end,
           'Guard discussion ' || g, 'Open house questions from the guard.', now() - interval '30 days' - interval '1 day' * g,
           case when g = 3 then now() end
    from generate_series(1, ${MY_DISCUSSIONS}) as g`);
  await t.db.execute(sql`
    insert into community_replies (post_id, author_id, author_name, author_tier, body, created_at, hidden_at)
    select 'guard-post-' || (1 + g % ${MY_DISCUSSIONS}), author.id, author.name, author.membership_tier, 'Guard reply ' || g,
           now() - interval '1 hour' * (g / 3), case when g % 10 = 0 then now() end
    from generate_series(1, ${REPLIES_TO_ME}) as g
    join members as author on author.email = case when g % 15 = 0 then ${email} else 'member' || g || ${`@${SCALE_EMAIL_DOMAIN}`} end`);
  // The bell: a few notifications for every member, and many for this one (some hidden by the
  // member's choice, some on the same moment), so the member's page must be read on its index.
  await t.db.execute(sql`
    insert into notifications (member_id, kind, group_key, title, url, shown, updated_at)
    select m.id, 'reply', 'guard:' || m.id || ':' || g, 'Guard notice ' || g, '/community', true, now() - interval '1 hour' * g
    from members as m cross join generate_series(1, 3) as g`);
  await t.db.execute(sql`
    insert into notifications (member_id, kind, group_key, title, url, shown, updated_at)
    select ${memberId}, 'like', 'guard-mine:' || g, 'Guard like ' || g, '/community', g % 9 <> 0, now() - interval '1 minute' * (g / 3)
    from generate_series(1, ${MY_NOTIFICATIONS}) as g`);
  // What staff did to the member (the member page's activity), more than a page, a few at the same moment.
  await t.db.execute(sql`
    insert into audit_log (actor_email, action, target, old_value, new_value, created_at)
    select ${`staff1@${SCALE_EMAIL_DOMAIN}`}, 'member.tier', ${email}, jsonb_build_object('tier', 'free'), jsonb_build_object('tier', 'gold'),
           now() - interval '1 day' * (g / 3)
    from generate_series(1, ${PAGE_SIZE.staffList + 20}) as g`);
}

/**
 * The lists staff author by hand (courses, resources, the podcast) and the staff accounts, filled
 * well past a page, with ties in their order (the same position and title, the same moment).
 */
async function giveLongStaffLists() {
  await t.db.execute(sql`
    insert into courses (id, title, description, category, tier, thumbnail, duration, instructor, status, position)
    select 'guard-shelf-' || lpad(g::text, 4, '0'), 'Guard shelf ' || (g % 7), 'A course of the scale guard.', 'sales', 'free',
           '/images/guard.webp', '1h', 'Guard', 'archived', 1000 + g / 10
    from generate_series(1, ${AUTHORED_ROWS}) as g`);
  await t.db.execute(sql`
    insert into resources (id, title, description, resource_type, tier_required, position)
    select 'guard-resource-' || lpad(g::text, 4, '0'), 'Guard resource ' || (g % 7), 'A resource of the scale guard.', 'ebook', 'silver',
           1000 + g / 10
    from generate_series(1, ${AUTHORED_ROWS}) as g`);
  await t.db.execute(sql`
    insert into staff_accounts (email, password_hash, role, created_at)
    select 'guard-editor-' || g || ${`@${SCALE_EMAIL_DOMAIN}`}, 'not a password hash', 'editor', now() - interval '1 day' * (g / 3)
    from generate_series(1, ${AUTHORED_ROWS}) as g`);
  await t.db.execute(sql`
    insert into podcast_episodes (id, title, description, season, episode, published_at)
    select 'guard-episode-' || lpad(g::text, 4, '0'), 'Guard episode ' || g, 'An episode of the scale guard.', 1 + g / 100, g,
           now() - interval '3 days' * (g / 3)
    from generate_series(1, ${AUTHORED_ROWS}) as g`);
}

/** Discussions holding the rare word, a few hidden or in the Gold Lounge. */
async function giveRareDiscussions() {
  await t.db.execute(sql`
    insert into community_posts (id, author_id, user_name, author_tier, space, title, content, created_at, hidden_at)
    select 'guard-rare-' || lpad(g::text, 2, '0'), null, 'Guard Author', 'silver', case when g % 11 = 5 then 'gold' else 'general' end,
           case when g % 3 = 0 then ${`A ${RARE_WORD} at the open house`} || ' ' || g else 'An odd visitor at the open house ' || g end,
           case when g % 2 = 0 then ${`The ${RARE_WORD} stayed for the whole showing.`} else ${`Someone brought a ${RARE_WORD}. Then another ${RARE_WORD}.`} end,
           spread.created_at - interval '1 second', case when g % 13 = 7 then now() end
    from generate_series(1, ${RARE_POSTS + 6}) as g
    -- Spread as the discussions are (more of them lately), as a word nobody planned for is.
    join lateral (
      select created_at from community_posts order by created_at, id offset (g - 1) * ${Math.floor(VOLUME.posts / (RARE_POSTS + 6))} limit 1
    ) as spread on true`);
}

beforeAll(async () => {
  t = await createTestApp();
  await seedScaleData(t.db, await hashPassword(SCALE_PASSWORD), () => {}, VOLUME);
  member = await t.loginAs('gold', { name: 'Guard Gold' });
  staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  await giveLongLists(member);
  await giveLongStaffLists();
  await giveRareDiscussions();
  // More pinned discussions than the first page shows (in the general space), pinned at different moments.
  await t.db.execute(sql`
    update community_posts set pinned_at = created_at + interval '1 hour'
    where id in (
      select id from (select id, space, row_number() over (partition by space order by created_at desc) as n from community_posts where hidden_at is null) as newest
      where n <= case space when 'general' then 7 else 2 end)`);
  const [busiest] = await rowsOf<{ id: string }>(sql`
    select id from community_posts where space = 'general' and hidden_at is null order by replies_count desc, id limit 1`);
  busiestPost = busiest!.id;
  // Plans are chosen on statistics, as in production after the scale seed: every filled table analysed.
  await analyzeScaleTables(t.db);
  await t.db.execute(sql`vacuum (analyze) courses, resources, staff_accounts, podcast_episodes, notifications`);
  indexTables = await tablesOfIndexes(t.database);
}, 120_000);
afterAll(() => t?.close());

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
  /**
   * Object answers: the field holding the rows, and where the next page's cursor is (`next_cursor`
   * unless said). Array answers name the next page in `Link`.
   */
  items?: string;
  nextIn?: (body: Record<string, unknown>) => unknown;
  /** The query parameter that carries the cursor. */
  param?: string;
  /** What identifies a row in the answer. */
  key?: string;
  /** The table the list reads: a query on it must be among those the request sends. */
  table: string;
  /** The index its pages are read through (the planner's own choice, checked on the lists of tables staff author). */
  index?: string;
  /** The list's rows in its order, as `id`, the first `limit` of them. */
  expected: (limit: number) => SQL;
  /** Followed to its last page (a short list), rather than for three pages. */
  toEnd?: boolean;
  /** Nothing matches: one empty page, with no next one. */
  empty?: boolean;
  /** What every row of a search must show. */
  matches?: (row: Record<string, unknown>) => boolean;
  /** The rows a plan node may read from a big table, when not `boundOf(list)`. */
  bound?: number;
  /** A product problem that makes its reads fail the bound, in a line: the reads are then checked with `it.fails`. */
  knownProblem?: string;
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
const repliesToMe = (limit: number) => sql`
  select reply.id from community_replies as reply join community_posts as post on post.id = reply.post_id
  where post.author_id = ${member.memberId} and post.hidden_at is null and reply.hidden_at is null
    and reply.author_id is distinct from ${member.memberId}
  order by reply.created_at desc, reply.id desc limit ${limit}`;
const myEnrolments = (limit: number) => sql`
  select course_id as id from enrolments where member_id = ${member.memberId} order by enrolled_at desc, course_id desc limit ${limit}`;
const myCertificates = (limit: number) => sql`
  select code as id from certificates where member_id = ${member.memberId} order by issued_at desc, certificates.id desc limit ${limit}`;
const newestEpisodes = (limit: number) => sql`select id from podcast_episodes order by published_at desc, id desc limit ${limit}`;
const fieldsOf = (row: Record<string, unknown>, ...fields: string[]) => fields.map((field) => String(row[field] ?? '')).join(' ');

const COMMUNITY_SEARCH = 'cold calling';
/** A few dozen discussions: a topic in a small town. */
const OR_SEARCH = 'short sales town or cold calling town';
const feed = (query: string) => () => `/api/community/feed?${query}`;
const memberPage = () => `/api/admin/members/${member.memberId}`;
const hasRareWord = (row: Record<string, unknown>) => new RegExp(RARE_WORD, 'i').test(fieldsOf(row, 'title', 'content'));

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
    name: 'feed, search for common words',
    url: feed(`space=general&q=${encodeURIComponent(COMMUNITY_SEARCH)}`),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    items: 'posts',
    table: 'community_posts',
    expected: bestMatchesIn('general', COMMUNITY_SEARCH),
    matches: (post) => /cold/i.test(fieldsOf(post, 'title', 'content')),
    bound: WINDOW_BOUND,
  },
  {
    name: 'feed, search for one or another phrase',
    url: feed(`space=general&q=${encodeURIComponent(OR_SEARCH)}`),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    items: 'posts',
    table: 'community_posts',
    expected: bestMatchesIn('general', OR_SEARCH),
    toEnd: true,
    matches: (post) => /town/i.test(fieldsOf(post, 'title', 'content')),
  },
  {
    name: 'feed, search for a rare word',
    url: feed(`space=general&q=${RARE_WORD}`),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    items: 'posts',
    table: 'community_posts',
    expected: bestMatchesIn('general', RARE_WORD),
    toEnd: true,
    matches: hasRareWord,
  },
  {
    name: 'feed, search for a word that matches nothing',
    url: feed(`space=general&q=${NO_MATCH_WORD}`),
    who: 'member',
    size: PAGE_SIZE.communityFeed,
    items: 'posts',
    table: 'community_posts',
    expected: bestMatchesIn('general', NO_MATCH_WORD),
    empty: true,
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
    expected: repliesToMe,
  },
  {
    name: 'my notifications',
    url: () => '/api/notifications',
    who: 'member',
    size: NOTIFICATIONS.pageSize,
    items: 'items',
    table: 'notifications',
    expected: (limit) => sql`
      select id from notifications where member_id = ${member.memberId} and shown order by updated_at desc, id desc limit ${limit}`,
  },
  {
    name: 'my enrolments',
    url: () => '/api/me/enrolments',
    who: 'member',
    size: PAGE_SIZE.memberList,
    table: 'enrolments',
    expected: myEnrolments,
    toEnd: true,
  },
  {
    name: 'my certificates',
    url: () => '/api/me/certificates',
    who: 'member',
    size: PAGE_SIZE.memberList,
    key: 'code',
    table: 'certificates',
    expected: myCertificates,
    toEnd: true,
  },
  // The podcast, for everyone: the spec's array (its `Link` names the next page) and the episode list's pages.
  {
    name: 'podcast episodes',
    url: () => '/api/podcast/episodes',
    who: 'visitor',
    size: PAGE_SIZE.episodes,
    table: 'podcast_episodes',
    index: 'podcast_episodes_newest_idx',
    expected: newestEpisodes,
  },
  {
    name: 'podcast episode pages',
    url: () => '/api/podcast/episodes/pages',
    who: 'visitor',
    size: EPISODES_PER_PAGE,
    items: 'episodes',
    table: 'podcast_episodes',
    index: 'podcast_episodes_newest_idx',
    expected: newestEpisodes,
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
    name: 'staff discussions, search for a common word',
    url: () => '/api/admin/community/posts?search=beach',
    who: 'staff',
    size: PAGE_SIZE.moderation,
    table: 'community_posts',
    expected: staffDiscussions('beach'),
    toEnd: true,
    bound: WINDOW_BOUND,
  },
  {
    name: 'staff discussions, search for a rare word',
    url: () => `/api/admin/community/posts?search=${RARE_WORD}`,
    who: 'staff',
    size: PAGE_SIZE.moderation,
    table: 'community_posts',
    expected: staffDiscussions(RARE_WORD),
    toEnd: true,
    matches: (row) => new RegExp(`${RARE_WORD}|odd visitor`, 'i').test(fieldsOf(row, 'title')),
  },
  {
    name: 'staff discussions, search for a word that matches nothing',
    url: () => `/api/admin/community/posts?search=${NO_MATCH_WORD}`,
    who: 'staff',
    size: PAGE_SIZE.moderation,
    table: 'community_posts',
    expected: staffDiscussions(NO_MATCH_WORD),
    empty: true,
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
  // A member's page for staff: three lists, each paged on its own parameter.
  {
    name: "a member's courses, for staff",
    url: memberPage,
    who: 'staff',
    size: PAGE_SIZE.memberList,
    items: 'enrolments',
    nextIn: (body) => (body.next as Record<string, unknown>).courses,
    param: 'courses',
    table: 'enrolments',
    expected: myEnrolments,
    toEnd: true,
  },
  {
    name: "a member's certificates, for staff",
    url: memberPage,
    who: 'staff',
    size: PAGE_SIZE.memberList,
    items: 'certificates',
    nextIn: (body) => (body.next as Record<string, unknown>).certificates,
    param: 'certificates',
    key: 'code',
    table: 'certificates',
    expected: myCertificates,
    toEnd: true,
  },
  {
    name: "a member's activity, for staff",
    url: memberPage,
    who: 'staff',
    size: PAGE_SIZE.staffList,
    items: 'activity',
    nextIn: (body) => (body.next as Record<string, unknown>).activity,
    param: 'activity',
    table: 'audit_log',
    expected: (limit) => sql`select id from audit_log where target = ${member.email} order by id desc limit ${limit}`,
    toEnd: true,
  },
  {
    name: 'activity',
    url: () => '/api/admin/activity',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'audit_log',
    expected: (limit) => sql`select id from audit_log order by id desc limit ${limit}`,
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
    matches: (row) => fieldsOf(row, 'filename').toLowerCase().includes('pdf'),
  },
  {
    name: 'messages',
    url: () => '/api/admin/messages',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'contact_messages',
    expected: (limit) => sql`select id from contact_messages order by created_at desc, id desc limit ${limit}`,
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
  },
  {
    name: 'staff resources',
    url: () => '/api/admin/resources',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'resources',
    index: 'resources_position_idx',
    expected: (limit) => sql`select id from resources order by position, title, id limit ${limit}`,
  },
  {
    name: 'staff accounts',
    url: () => '/api/admin/staff',
    who: 'staff',
    size: PAGE_SIZE.staffList,
    table: 'staff_accounts',
    index: 'staff_accounts_created_idx',
    expected: (limit) => sql`select id from staff_accounts order by created_at, id limit ${limit}`,
  },
];

// ---------------------------------------------------------------------------------------------
// What each statement a request sends costs, as PostgreSQL runs it.

/** The big table a plan node reads (a Bitmap Index Scan through its index), or undefined. */
function bigTableOf(node: PlanNode): string | undefined {
  const table = node['Relation Name'] ?? (node['Index Name'] ? indexTables.get(node['Index Name']) : undefined);
  return table && BIG_TABLES.has(table) ? table : undefined;
}

/** A statement, once per text and parameters: a request often sends the same lookup twice. */
const distinct = (statements: Statement[]) => [
  ...new Map(statements.map((statement) => [`${statement.text}\u0000${JSON.stringify(statement.params)}`, statement])).values(),
];

/**
 * Every node of the statements' plans (PostgreSQL's own choice, run) that scans a big table whole
 * or reads more than `bound` rows of it: the statement, its parameters and its plan.
 */
async function overreads(statements: Statement[], bound: number): Promise<{ problems: string[]; plans: PlanNode[] }> {
  const problems: string[] = [];
  const plans: PlanNode[] = [];
  for (const statement of distinct(statements)) {
    const plan = await analyzedPlan(t.database, statement);
    plans.push(plan);
    const found = nodesOf(plan).flatMap((node) => {
      const table = bigTableOf(node);
      if (!table) return [];
      if (node['Node Type'] === 'Seq Scan') return [`a sequential scan of ${table} (read ${rowsRead(node)} rows)`];
      return rowsRead(node) > bound ? [`${rowsRead(node)} rows of ${table} (at most ${bound})`] : [];
    });
    if (found.length > 0) {
      problems.push(
        `reads ${found.join(', ')}:\n${statement.text}\nparams ${JSON.stringify(statement.params)}\n${describePlan(plan).join('\n')}`,
      );
    }
  }
  return { problems, plans };
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
  body: unknown;
}

/** The list's address with a cursor in its query (as `Link` and the pages write it). */
const withCursor = (list: List, cursor: string) => {
  const address = new URL(list.url(), 'http://site.invalid');
  address.searchParams.set(list.param ?? 'before', cursor);
  return `${address.pathname}${address.search}`;
};

async function readPage(list: List, url: string): Promise<{ page: Page; reads: Statement[] }> {
  const { result: response, reads } = await recordingReads(t.database, () =>
    t.app.inject({ method: 'GET', url, headers: headersOf(list.who) }),
  );
  expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
  const param = list.param ?? 'before';
  let rows: Record<string, unknown>[];
  let next: string | null = null;
  let cursor: string | null = null;
  const body = response.json() as unknown;
  if (list.items) {
    const answer = body as Record<string, unknown>;
    rows = answer[list.items] as Record<string, unknown>[];
    cursor = (list.nextIn ? list.nextIn(answer) : answer.next_cursor) as string | null;
    expect(response.headers.link).toBeUndefined();
    if (cursor) next = withCursor(list, cursor);
  } else {
    rows = body as Record<string, unknown>[];
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
  return { page: { keys: rows.map((row) => String(row[list.key ?? 'id'])), rows, next, cursor, body }, reads };
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

/** The list's first pages as a client reads them, and the reads its first page and one cursor page sent. */
async function readList(list: List): Promise<{ pages: Page[]; recorded: Statement[] }> {
  const pages: Page[] = [];
  const recorded: Statement[] = [];
  let url: string | null = list.url();
  // Three pages, or every page of a short list (never more than 30: the end must come).
  while (url && pages.length < (list.toEnd ? 30 : 3)) {
    const { page, reads } = await readPage(list, url);
    // The first page and one cursor page send every query of the list.
    if (pages.length < 2) recorded.push(...reads);
    pages.push(page);
    url = page.next;
  }
  return { pages, recorded };
}

/** One page at a time, in order, with working cursors; none forged is answered with a 500. */
async function checkPaging(list: List, pages: Page[]) {
  // Bounded: a page is never longer than its size (the first may add the pinned discussions), and
  // only a full page names another.
  pages.forEach((page, index) => {
    const most = list.size + (index === 0 ? (list.pinned ?? 0) : 0);
    expect.soft(page.keys.length, `page ${index + 1} of ${list.name}`).toBeLessThanOrEqual(most);
    if (page.next) expect.soft(page.keys.length, `page ${index + 1} of ${list.name} is full`).toBeGreaterThanOrEqual(list.size);
  });
  if (list.empty) {
    expect(
      pages.map((page) => [page.keys, page.next]),
      `${list.name}: one empty page`,
    ).toEqual([[[], null]]);
  } else {
    expect(pages.length, `${list.name} spans several pages`).toBeGreaterThan(1);
  }

  // In order, with nothing repeated or skipped from one page to the next.
  const shown = pages.flatMap((page) => page.keys);
  const expected = (await rowsOf<{ id: string | number }>(list.expected(shown.length + 1))).map((row) => String(row.id));
  expect.soft(shown, `${list.name} in order`).toEqual(expected.slice(0, shown.length));
  if (list.toEnd || list.empty) {
    expect.soft(pages.at(-1)!.next, `${list.name} ends`).toBeNull();
    expect.soft(expected, `${list.name} showed every row`).toHaveLength(shown.length);
  }
  if (list.matches) {
    const misses = pages.flatMap((page) => page.rows).filter((row) => !list.matches!(row));
    expect.soft(misses, `${list.name}: rows that do not match`).toEqual([]);
  }

  const refusals: string[] = [];
  for (const [cursor, answers] of pages[0]!.cursor ? tamperedCursors(pages[0]!.cursor) : []) {
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
}

/** The list's query is among those recorded, and its table is big enough that reading it whole would break the bound. */
async function checkRecorded(list: List, recorded: Statement[]) {
  expect(
    recorded.some((statement) => statement.text.includes(`from "${list.table}"`)),
    `the query of ${list.table} is recorded`,
  ).toBe(true);
  if (BIG_TABLES.has(list.table)) {
    const bound = list.bound ?? boundOf(list);
    const [{ rows } = { rows: 0 }] = await rowsOf<{ rows: number }>(sql`select count(*)::int as rows from ${sql.identifier(list.table)}`);
    expect(rows, `${list.table} holds more rows than ${list.name} may read`).toBeGreaterThan(bound);
  }
}

/**
 * Every statement of the first page and of a cursor page, planned by PostgreSQL's own choice and
 * run: no sequential scan of a big table, and no node reading more than about a page of one.
 */
async function checkReads(list: List, recorded: Statement[]) {
  const bound = list.bound ?? boundOf(list);
  const { problems, plans } = await overreads(recorded, bound);
  expect(problems.join('\n\n'), `${list.name}: queries that read a big table beyond ${bound} rows`).toBe('');
  if (list.index) {
    const indexes = plans.flatMap(nodesOf).flatMap((node) => node['Index Name'] ?? []);
    expect(indexes, `${list.name}: the pages are read through ${list.index}`).toContain(list.index);
  }
}

const sound = LISTS.filter((list) => !list.knownProblem);
const flawed = LISTS.filter((list) => list.knownProblem);

describe('every list at scale', () => {
  it.each(sound.map((list) => [list.name, list] as const))('%s: one page at a time, in order, on an index', async (_name, list) => {
    const { pages, recorded } = await readList(list);
    await checkPaging(list, pages);
    await checkRecorded(list, recorded);
    await checkReads(list, recorded);
  });

  // Lists whose reads the product does not bound yet: paged and ordered (checked as above), but
  // their reads break the bound, for the reason each gives. The reads are checked alone, with
  // `it.fails`, which turns into a failure the day the product bounds them (then drop knownProblem).
  describe.each(flawed.map((list) => [list.name, list] as const))('%s', (_name, list) => {
    let reading: ReturnType<typeof readList> | undefined;
    const read = () => (reading ??= readList(list));
    it('one page at a time, in order', async () => {
      const { pages, recorded } = await read();
      await checkPaging(list, pages);
      await checkRecorded(list, recorded);
    });
    it.fails(`reads at most about a page of any big table (it does not: ${list.knownProblem})`, async () => {
      await checkReads(list, (await read()).recorded);
    });
  });

  it('podcast episode pages: the total is the number of episodes', async () => {
    const response = await t.app.inject({ url: '/api/podcast/episodes/pages' });
    const [{ episodes } = { episodes: -1 }] = await rowsOf<{ episodes: number }>(
      sql`select count(*)::int as episodes from podcast_episodes`,
    );
    expect(response.json<{ total: number }>().total).toBe(episodes);
  });
});

describe('the staff overview at scale', () => {
  interface Overview {
    signups_by_week: { week: string; count: number }[];
    enrolments_by_week: { week: string; count: number }[];
    members_by_tier: Record<string, number>;
  }

  it('counts members per tier and sign-ups and enrolments per week as the tables do, reading the counters only', async () => {
    const { result: response, reads } = await recordingReads(t.database, () =>
      t.app.inject({ url: '/api/admin/overview', headers: staff }),
    );
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const overview = response.json<Overview>();

    const tiers = await rowsOf<{ tier: string; members: number }>(
      sql`select membership_tier as tier, count(*)::int as members from members group by 1`,
    );
    expect(overview.members_by_tier).toEqual({
      free: 0,
      bronze: 0,
      silver: 0,
      gold: 0,
      ...Object.fromEntries(tiers.map((row) => [row.tier, row.members])),
    });

    // The weeks shown (Mondays, UTC), each with what the tables hold for it.
    const weeks = overview.signups_by_week.map((row) => row.week);
    expect(overview.enrolments_by_week.map((row) => row.week)).toEqual(weeks);
    const perWeek = async (table: 'members' | 'enrolments', column: 'created_at' | 'enrolled_at') => {
      const counted = await rowsOf<{ week: string; count: number }>(sql`
        select to_char(date_trunc('week', ${sql.identifier(column)} at time zone 'UTC'), 'YYYY-MM-DD') as week, count(*)::int as count
        from ${sql.identifier(table)}
        where ${sql.identifier(column)} >= ${`${weeks[0]}T00:00:00Z`}::timestamptz group by 1`);
      const byWeek = new Map(counted.map((row) => [row.week, row.count]));
      expect(
        [...byWeek.keys()].filter((week) => !weeks.includes(week)),
        `${table} in weeks not shown`,
      ).toEqual([]);
      return weeks.map((week) => ({ week, count: byWeek.get(week) ?? 0 }));
    };
    expect(overview.signups_by_week).toEqual(await perWeek('members', 'created_at'));
    expect(overview.enrolments_by_week).toEqual(await perWeek('enrolments', 'enrolled_at'));
    // The figures are not all zeros: the filled tables have members and enrolments in these weeks.
    expect(overview.signups_by_week.some((row) => row.count > 0)).toBe(true);
    expect(overview.enrolments_by_week.some((row) => row.count > 0)).toBe(true);

    // Read from the counters: no statement reads members or enrolments beyond a handful of rows.
    const { problems } = await overreads(reads, READ_SLACK);
    expect(problems.join('\n\n'), 'the overview reads big tables').toBe('');
  });
});

// ---------------------------------------------------------------------------------------------
// The pages: 'Older' / 'Next page' are plain links, which lead to the next page without JavaScript.

describe('the pages at scale', () => {
  let site: PageApp | undefined;
  beforeAll(async () => {
    site = await startPageApp(t);
  }, 60_000);
  afterAll(() => site?.close());

  /** What the page shows: its markup before the scripts (which carry the same data again for the browser). */
  const shownPart = (html: string) => html.slice(0, html.indexOf('<script'));
  const decoded = (text: string) =>
    text
      .replace(/<!-- -->/g, '')
      .replaceAll('&#x27;', "'")
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
  /** The links to the next page (`rel="next"`): their address and their words. */
  const nextLinks = (html: string) =>
    [...shownPart(html).matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)]
      .filter(([, attributes]) => /\brel="next"/.test(attributes!))
      .map(([, attributes, text]) => ({ href: decoded(/\bhref="([^"]*)"/.exec(attributes!)?.[1] ?? ''), text: decoded(text!) }));

  interface PagedPage {
    url: string;
    headers: Record<string, string>;
    /** The words of the link to the next page (a page of several lists has one link per list). */
    label: RegExp;
    /** The rows the page shows, in its order, as the list's SQL names them. */
    rowsOn: (html: string) => string[];
    expected: (limit: number) => Promise<string[]>;
    pages?: number;
    ends?: boolean;
  }

  /** The first page and the two after it, followed through their links as a browser without JavaScript does. */
  /**
   * The first page and those after it, followed through their links as a browser without JavaScript
   * does: `pages` of them, the last of a short list (`ends`) with no link on.
   */
  async function followPages({ url, headers, label, rowsOn, expected, pages = 3, ends = false }: PagedPage) {
    const shown: string[][] = [];
    let address = url;
    for (let page = 1; ; page++) {
      const response = await site!.app.inject({ url: address, headers });
      expect(response.statusCode, `GET ${address}: ${response.headers.location ?? ''} ${response.body.slice(0, 200)}`).toBe(200);
      const rows = rowsOn(response.body);
      expect(rows.length, `rows on ${address}`).toBeGreaterThan(0);
      shown.push(rows);
      if (page > 1) expect(shownPart(response.body), `a way back from ${address}`).toMatch(/First page|Newest/);
      const links = nextLinks(response.body).filter((link) => label.test(link.text));
      if (page === pages) {
        if (ends) expect(links, `no link after the last page, ${address}`).toEqual([]);
        break;
      }
      expect(links, `the link to the page after ${address}`).toHaveLength(1);
      const next = new URL(links[0]!.href, `http://site.invalid${address}`);
      expect(next.pathname, 'the next page is the same page').toBe(new URL(url, 'http://site.invalid').pathname);
      address = `${next.pathname}${next.search}`;
    }
    const all = shown.flat();
    const wanted = await expected(all.length + 1);
    expect(all, 'the pages in order, none repeated or skipped').toEqual(wanted.slice(0, all.length));
    if (ends) expect(wanted, 'every row shown').toHaveLength(all.length);
  }

  const idsOf = (list: (limit: number) => SQL) => async (limit: number) =>
    (await rowsOf<{ id: string }>(list(limit))).map((row) => String(row.id));
  const dataAttributes = (name: string) => (html: string) =>
    [...shownPart(html).matchAll(new RegExp(`data-${name}="([^"]+)"`, 'g'))].map((match) => decoded(match[1]!));

  it('the community preview, for visitors: Older leads on', async () => {
    // The preview names no discussion: its titles, in the order of the discussions' ids.
    const titlesOf = async (limit: number) => {
      const ids = await idsOf(newestIn('general'))(limit);
      const titles = await rowsOf<{ id: string; title: string }>(
        sql`select id, title from community_posts where id = any(${sql.param(ids)}::text[])`,
      );
      const titleOf = new Map(titles.map((row) => [row.id, row.title]));
      return ids.map((id) => titleOf.get(id)!);
    };
    await followPages({
      url: '/community',
      headers: {},
      label: /Older/,
      rowsOn: (html) => [...shownPart(html).matchAll(/<h3[^>]*>([\s\S]*?)<\/h3>/g)].map((match) => decoded(match[1]!)),
      expected: titlesOf,
    });
  });

  it("the member's feed: Older leads on", async () => {
    await followPages({
      url: '/community?space=general&sort=newest',
      headers: member.headers,
      label: /Older/,
      rowsOn: dataAttributes('post-id'),
      expected: idsOf(newestIn('general')),
    });
  });

  it("the member's replies to their discussions: Next page leads on", async () => {
    // Each reply of the guard's says its number ('Guard reply 37').
    const bodiesOf = async (limit: number) => {
      const ids = await idsOf(repliesToMe)(limit);
      const bodies = await rowsOf<{ id: string; body: string }>(
        sql`select id::text, body from community_replies where id = any(${sql.param(ids)}::uuid[])`,
      );
      const bodyOf = new Map(bodies.map((row) => [row.id, row.body]));
      return ids.map((id) => bodyOf.get(id)!);
    };
    await followPages({
      url: '/dashboard/replies',
      headers: member.headers,
      label: /Next page/,
      rowsOn: (html) => [...shownPart(html).matchAll(/Guard reply \d+/g)].map((match) => match[0]),
      expected: bodiesOf,
    });
  });

  it("the staff's moderation page: Next page leads on through the discussions", async () => {
    await followPages({
      url: '/admin/dashboard/community',
      headers: staff,
      label: /Next page/,
      rowsOn: dataAttributes('discussion-id'),
      expected: idsOf(staffDiscussions()),
    });
  });

  it('a search for a rare word, on the member feed and the moderation page: the link to the next page keeps the search', async () => {
    await followPages({
      url: `/community?space=general&q=${RARE_WORD}`,
      headers: member.headers,
      label: /Older/,
      rowsOn: dataAttributes('post-id'),
      expected: idsOf(bestMatchesIn('general', RARE_WORD)),
      pages: 2,
      ends: true,
    });
    await followPages({
      url: `/admin/dashboard/community?search=${RARE_WORD}`,
      headers: staff,
      label: /Next page/,
      rowsOn: dataAttributes('discussion-id'),
      expected: idsOf(staffDiscussions(RARE_WORD)),
      pages: 2,
      ends: true,
    });
  });
});
