import { sql, type SQL } from 'drizzle-orm';
import { PRICING_PLANS } from '../../common/pricing.ts';
import { TIERS } from '../../common/tiers.ts';
import type { Database, DatabaseOrTransaction } from '../client.ts';

// The scale data set: a busy coaching business's volume, for load tests and query plans. Every
// table is filled by a few set-based statements (insert ... select ... from generate_series), in one
// transaction. Columns are always named: the tables gain columns with defaults over time.

export const SCALE_EMAIL_DOMAIN = 'scale.realtypocket.test';
export const SCALE_PASSWORD = 'scale-password';
export const SCALE_STAFF = { owners: 3, editors: 5 };

/** How much the data set holds: members, and the draws each table is filled from. */
export interface ScaleVolume {
  members: number;
  posts: number;
  /** A few draws are dropped: members who joined after the discussion was locked. */
  replyDraws: number;
  /** Drawn with repeats on popular posts; duplicates are skipped, so a little fewer end up stored. */
  likeDraws: number;
  postReports: number;
  replyReports: number;
  sessions: number;
  auditEntries: number;
  outboxMessages: number;
  uploadedFiles: number;
  contactMessages: number;
}

/** A busy coaching business: what `npm run seed:scale` loads. */
const SCALE_VOLUME: ScaleVolume = {
  members: 50_000,
  posts: 200_000,
  replyDraws: 601_000,
  likeDraws: 320_000,
  postReports: 1_400,
  replyReports: 600,
  sessions: 100_000,
  auditEntries: 50_000,
  outboxMessages: 100_000,
  uploadedFiles: 5_000,
  contactMessages: 5_000,
};
export const SCALE_MEMBERS = SCALE_VOLUME.members;

// One paid member in this many pays through a subscription (a few hundred); the rest have their tier from staff.
const SUBSCRIBER_EVERY = 50;

/** Each table the data set fills, in the order of the summary. */
const FILLED_TABLES = [
  'members',
  'staff_accounts',
  'subscriptions',
  'community_posts',
  'community_replies',
  'community_likes',
  'community_reports',
  'enrolments',
  'lesson_progress',
  'lesson_positions',
  'certificates',
  'sessions',
  'audit_log',
  'outbox_messages',
  'uploaded_files',
  'contact_messages',
] as const;

/** A list written as words separated by spaces and line breaks. */
const words = (text: string) => text.trim().split(/\s+/);

const FIRST_NAMES = words(`
  Olivia Liam Emma Noah Ava Elijah Sophia James Isabella William Mia Benjamin Charlotte Lucas Amelia Henry Harper
  Alexander Evelyn Daniel Abigail Michael Emily Mateo Ella Jackson Sofia Sebastian Aaliyah Jack Camila Owen Priya Samuel
  Grace Wyatt Chloe Julian Layla Levi Nora Isaac Zoe Gabriel Hannah Carlos Mei Andre Fatima Diego Keisha Tomás Yuki Rahul
`);
const LAST_NAMES = words(`
  Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson
  Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young
  Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Patel Okafor
  Kowalski
`);

// The community's vocabulary: a topic, a second topic, a place and a number fill the patterns
// (%1$s, %3$s, %2$s, %4$s), so full-text search finds a realistic spread of matches.
const TOPICS = [
  'open house',
  'listing presentation',
  'cold calling',
  'buyer objections',
  'mortgage pre-approval',
  'CMA',
  'farming a neighbourhood',
  'expired listings',
  'FSBO leads',
  'price reductions',
  'home staging',
  'drone photography',
  'sphere of influence',
  'referral partners',
  'bidding wars',
  'appraisal gaps',
  'inspection repairs',
  'closing costs',
  'escrow delays',
  'first-time buyers',
  'relocation clients',
  'investor clients',
  'luxury listings',
  'condo associations',
  'commission splits',
  'team building',
  'time blocking',
  'CRM follow-up',
  'door knocking',
  'social media video',
  'listing photos',
  'buyer agreements',
  'short sales',
  'rent-back agreements',
  'contingent offers',
  'circle prospecting',
  'pop-bys',
  'seller net sheets',
];
const PLACES = [
  "a hot seller's market",
  'a slow winter market',
  'the suburbs',
  'downtown condos',
  'a small town',
  'new construction',
  'a rural market',
  'a beach town',
  'a college town',
  'a retirement community',
  'my farm area',
  'a luxury neighbourhood',
  'a rising-rate market',
  'a multiple-offer situation',
  'a price-sensitive market',
  'a military relocation area',
  'a resort market',
];
const TITLE_PATTERNS = [
  'How do you handle %1$s in %2$s?',
  'What finally worked for me with %1$s',
  'Struggling with %1$s, any advice?',
  'Your best script for %1$s?',
  'Closed a deal thanks to %1$s',
  'New agent question: %1$s or %3$s first?',
  'Weekly win: %1$s in %2$s',
  'Lessons learned from %1$s this quarter',
  'Is %1$s still worth it in %2$s?',
  'Tracking my numbers for %1$s',
  'Mistakes I made with %1$s',
  'My checklist for %1$s, feedback welcome',
  'Pairing %1$s with %3$s',
  'Gold tip: %1$s done right',
];
const POST_SENTENCES = [
  'I have been working on %1$s for about %4$s weeks now and the results are mixed.',
  'In %2$s, %1$s seems to take twice as long as the books say.',
  'My broker suggested pairing %1$s with %3$s, which helped more than I expected.',
  'Last month I booked %4$s appointments just from %1$s.',
  'The hardest part of %1$s for me is staying consistent when the calendar fills up.',
  'A seller asked me about %3$s during the listing appointment and I froze.',
  'Has anyone built a simple tracker for %1$s in their CRM?',
  'I role-played %1$s with my accountability partner every morning this week.',
  'Clients in %2$s care about %3$s far more than I assumed.',
  'What do you say when %3$s comes up on the first call?',
  'I lost a listing to a discount brokerage and I think my approach to %1$s was the reason.',
  'The course lesson on %1$s changed how I prepare my CMA.',
  'My lender partner now joins me for %1$s, and buyers arrive with their mortgage pre-approval in hand.',
  'After %4$s open houses this season I have a much better feel for %2$s.',
  'Happy to share my template for %1$s if anyone wants it.',
  'The numbers: %4$s conversations, a handful of appointments and one signed listing.',
  'Buyer objections around %3$s keep coming up, and I am still refining my answers.',
  'Any tips for explaining %3$s to first-time buyers without overwhelming them?',
  'I started farming a neighbourhood of %4$s streets and %1$s is part of the plan.',
];
const REPLY_PATTERNS = [
  'Great question. For %1$s I block two hours every Tuesday and never move it.',
  'Same here in %2$s. What helped me was following up within 24 hours.',
  'I had the same problem with %1$s until I started tracking it weekly.',
  'Role-play it with a colleague first; %1$s got much easier for me after that.',
  'Thanks for sharing, saving this for my next listing presentation.',
  'Our team uses a shared script for %1$s, happy to send it over.',
  'Honestly %1$s works better when you combine it with %3$s.',
  'Congrats! That is a big win in %2$s.',
  'Have you asked your lender partner to help with %1$s?',
  'I disagree a little: in %2$s, %1$s rarely pays off in the first year.',
  'Printing this out for my morning routine.',
  'The objection handling course covers %3$s exactly like this.',
  'How many calls a day are you making? Consistency beats scripts with %1$s.',
  'The CMA is where I win or lose most listings, so I would start there.',
];
const REPORT_REASONS = [
  'Spam or self-promotion',
  'Off-topic for this space',
  'Rude to another member',
  "Shares a client's private details",
  'Advertises a paid service',
  'Duplicate of another discussion',
  'Misleading advice about contracts',
];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
];
const AUDIT_ACTIONS = [
  'member.tier',
  'course.update',
  'lesson.update',
  'lesson.reorder',
  'resource.update',
  'podcast.update',
  'content.update',
  'message.handled',
  'community.report.dismiss',
  'billing.refund',
];
// Parallel lists: the kind of a message and its subject.
const MAIL_KINDS = [
  'password-reset',
  'password-changed',
  'certificate-earned',
  'community-reply',
  'billing-receipt',
  'billing-payment-failed',
  'billing-cancellation-scheduled',
];
const MAIL_SUBJECTS = [
  'Reset your RealtyPocket password',
  'Your RealtyPocket password was changed',
  'Your certificate is ready',
  'Someone replied to your discussion',
  'Your RealtyPocket receipt',
  'Your payment did not go through',
  'Your membership will end at the close of this period',
];
// Parallel lists: an upload folder, its files' type and extension.
const FILE_FOLDERS = ['course-materials', 'ebooks', 'templates', 'images', 'videos'];
const FILE_TYPES = ['application/pdf', 'application/pdf', 'application/pdf', 'image/webp', 'video/mp4'];
const FILE_EXTENSIONS = ['pdf', 'pdf', 'pdf', 'webp', 'mp4'];
const CONTACT_SUBJECTS = [
  'Question about the Gold plan',
  'Team pricing for my brokerage',
  'Certificate name correction',
  'Trouble signing in',
  'Podcast guest suggestion',
  'Refund request',
  'Partnership enquiry',
  'Course idea: property management',
];

/** A list as an SQL text[] value (one parameter). */
const textArray = (values: readonly string[]) => sql`${sql.param(values)}::text[]`;
/** The item of the list at a 1-based position. */
const nth = (values: readonly string[], position: SQL) => sql`(${textArray(values)})[${position}]`;
/** A 1-based position drawn at random, once per row, for a list of this length. */
const drawPosition = (length: number) => sql`1 + floor(random() * ${sql.raw(String(length))})::int`;
/** One item of the list, drawn at random for each row. */
const pick = (values: readonly string[]) => nth(values, drawPosition(values.length));
/** An address in the documentation ranges (RFC 5737), never anyone's. */
const documentationAddress = sql`'203.0.113.' || (1 + floor(random() * 254))::int`;
const staffEmail = sql`'staff' || ${drawPosition(SCALE_STAFF.owners + SCALE_STAFF.editors)} || ${`@${SCALE_EMAIL_DOMAIN}`}`;
const tierRank = (column: SQL) => sql`array_position(${textArray(TIERS)}, ${column})`;
/** A moment between `from` and now, nearer `from` the higher `skew` (1: evenly spread). */
const momentAfter = (from: SQL, skew = 1) => sql`${from} + (now() - ${from}) * power(random(), ${sql.raw(String(skew))})`;

async function run(tx: DatabaseOrTransaction, ...statements: SQL[]) {
  for (const statement of statements) await tx.execute(statement);
}

async function rowsOf<Row>(db: DatabaseOrTransaction, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/**
 * Why the data set may not go into this database, or undefined when it may: it goes only into a
 * database of its own, never one with real members, and only once.
 */
export async function scaleRefusal(db: Database): Promise<string | undefined> {
  const [table] = await rowsOf<{ exists: boolean }>(db, sql`select to_regclass('public.members') is not null as exists`);
  if (!table?.exists) return undefined;
  const scaleEmail = `%@${SCALE_EMAIL_DOMAIN}`;
  const [found] = await rowsOf<{ real: number; scale: number }>(
    db,
    sql`select count(*) filter (where lower(email) not like ${scaleEmail})::int as real,
               count(*) filter (where lower(email) like ${scaleEmail})::int as scale
        from members`,
  );
  if (found && found.real > 0) {
    return `Refused: this database holds ${found.real} real member(s). The scale data set goes only into a database of its own; nothing was written.`;
  }
  if (found && found.scale > 0) {
    return 'Refused: this database already holds the scale data set. Drop and recreate the database to load it again; nothing was written.';
  }
  return undefined;
}

/**
 * Loads the whole data set in one transaction (all or nothing), calling `onStep` after each table.
 * The database must be migrated and hold the demo catalogue (the courses the members learn from).
 * A smaller `volume` gives the same data set in miniature, on the embedded database too (tests/api/scale-guard.test.ts).
 */
export async function seedScaleData(
  db: Database,
  passwordHash: string,
  onStep: (step: string, milliseconds: number) => void,
  volume: ScaleVolume = SCALE_VOLUME,
) {
  await db.transaction(async (tx) => {
    // Joins, counts and the temporary tables stay in memory; the same draws on every run (setseed),
    // so two loads give comparable benchmarks.
    await run(tx, sql`set local work_mem = '256MB'`, sql`set local temp_buffers = '512MB'`, sql`select setseed(0.42)`);
    const steps: [string, () => Promise<unknown>][] = [
      ['members', () => seedMembers(tx, volume, passwordHash)],
      ['staff_accounts', () => seedStaff(tx, passwordHash)],
      ['subscriptions', () => seedSubscriptions(tx)],
      ['community drawn', () => drawCommunity(tx, volume)],
      ['community_posts', () => seedPosts(tx)],
      ['community_replies', () => seedReplies(tx)],
      ['community_likes', () => seedLikes(tx)],
      ['community_reports', () => seedReports(tx, volume)],
      ['enrolments', () => seedEnrolments(tx)],
      ['lesson_progress', () => seedLessonProgress(tx)],
      ['lesson_positions', () => seedLessonPositions(tx)],
      ['certificates', () => seedCertificates(tx)],
      ['sessions', () => seedSessions(tx, volume)],
      ['audit_log', () => seedAuditLog(tx, volume)],
      ['outbox_messages', () => seedOutbox(tx, volume)],
      ['uploaded_files', () => seedUploadedFiles(tx, volume)],
      ['contact_messages', () => seedContactMessages(tx, volume)],
    ];
    for (const [step, fill] of steps) {
      const started = performance.now();
      await fill();
      onStep(step, performance.now() - started);
    }
  });
}

/**
 * Members, numbered 1 to volume.members in the order they joined (over three years, more of them
 * lately), with the temporary tables the later steps draw from:
 * - scale_member: each member's number, id, name, tier and when they joined;
 * - scale_author: who takes part in each community space (Bronze and above in 'general', Gold in
 *   'gold'), numbered 1 to the space's size in scale_space, so a draw in [0, 1) picks one.
 */
async function seedMembers(tx: DatabaseOrTransaction, volume: ScaleVolume, passwordHash: string) {
  await tx.execute(sql`
    create temporary table scale_member on commit drop as
    with drawn as (
      select n,
             ${pick(FIRST_NAMES)} || ' ' || ${pick(LAST_NAMES)} as name,
             now() - interval '3 years' * (1 - power((n - random()) / ${volume.members}, 0.7)) as created_at,
             random() as tier_draw,
             random() as cancel_draw,
             random() as suspend_draw
      from generate_series(1, ${volume.members}) as n
    ), tiered as (
      select *,
             case when tier_draw < 0.60 then 'free' when tier_draw < 0.80 then 'bronze' when tier_draw < 0.92 then 'silver' else 'gold' end
               as tier
      from drawn
    )
    select n, gen_random_uuid() as id, name, 'member' || n || ${`@${SCALE_EMAIL_DOMAIN}`} as email, tier, created_at,
           -- 3% of members (5% of the free ones) paid once and cancelled: their former tier.
           case when tier = 'free' and cancel_draw < 0.05
                then case when cancel_draw < 0.03 then 'bronze' when cancel_draw < 0.045 then 'silver' else 'gold' end
           end as former_tier,
           suspend_draw < 0.01 as suspended
    from tiered`);
  await run(
    tx,
    sql`alter table scale_member add primary key (n)`,
    sql`alter table scale_member add column subscription_status text`,
    sql`update scale_member set subscription_status = case when former_tier is not null then 'canceled' else 'active' end
        where former_tier is not null or (tier <> 'free' and n % ${SUBSCRIBER_EVERY} = 0)`,
    sql`analyze scale_member`,
    sql`create temporary table scale_author on commit drop as
        select space.name as space, row_number() over (partition by space.name order by m.n) as k, m.id, m.name, m.tier, m.created_at
        from scale_member m
        join (values ('general'), ('gold')) as space(name) on m.tier <> 'free' and (space.name = 'general' or m.tier = 'gold')`,
    sql`alter table scale_author add primary key (space, k)`,
    sql`analyze scale_author`,
    sql`create temporary table scale_space on commit drop as select space, count(*)::int as size from scale_author group by space`,
  );
  await tx.execute(sql`
    insert into members (id, name, email, password_hash, membership_tier, complimentary_tier, stripe_customer_id,
                         community_suspended_at, email_verified_at, email_opt_out, created_at, updated_at)
    select id, name, email, ${passwordHash}, tier,
           -- Paid tiers are given by staff as well, so no payment event lowers them.
           nullif(tier, 'free'),
           case when subscription_status is not null then 'cus_scale_' || n end,
           case when suspended then ${momentAfter(sql`created_at`)} end,
           case when random() < 0.9 then created_at + interval '20 minutes' * random() end,
           random() < 0.04,
           created_at, created_at
    from scale_member`);
}

async function seedStaff(tx: DatabaseOrTransaction, passwordHash: string) {
  await tx.execute(sql`
    insert into staff_accounts (email, password_hash, role, created_at)
    select 'staff' || n || ${`@${SCALE_EMAIL_DOMAIN}`}, ${passwordHash},
           case when n <= ${SCALE_STAFF.owners} then 'owner' else 'editor' end,
           now() - interval '3 years' + interval '30 days' * n
    from generate_series(1, ${SCALE_STAFF.owners + SCALE_STAFF.editors}) as n`);
}

/** Active subscriptions of a few hundred paid members, and the canceled ones of the members who left. */
async function seedSubscriptions(tx: DatabaseOrTransaction) {
  const prices = sql.join(
    PRICING_PLANS.flatMap((plan) => [
      sql`(${plan.tier}, 'monthly', ${plan.monthlyPrice * 100}::int, interval '1 month')`,
      sql`(${plan.tier}, 'yearly', ${plan.yearlyPrice * 100}::int, interval '1 year')`,
    ]),
    sql`, `,
  );
  await tx.execute(sql`
    insert into subscriptions (id, member_id, customer_id, status, tier, period, price_id, amount_cents, currency,
                               current_period_end, cancel_at_period_end, started_at, ended_at, created_at, updated_at)
    select 'sub_scale_' || s.n, s.id, 'cus_scale_' || s.n, s.subscription_status, price.tier, price.period,
           'price_scale_' || price.tier || '_' || price.period, price.amount_cents, 'usd',
           case when s.ended_at is null then now() + price.term * random() else s.ended_at end,
           s.ended_at is null and random() < 0.05,
           s.started_at, s.ended_at, s.started_at, coalesce(s.ended_at, s.started_at)
    from (
      select m.*, coalesce(m.former_tier, m.tier) as plan_tier,
             case when random() < 0.3 then 'yearly' else 'monthly' end as period,
             started.at as started_at,
             -- The daily job removes a member's data 90 days after their plan ends, so those who left
             -- (and are still here) did so within that time.
             case when m.subscription_status = 'canceled'
                  then greatest(${momentAfter(sql`started.at`)}, now() - interval '89 days' * random()) end as ended_at
      from scale_member m
      cross join lateral (select ${momentAfter(sql`m.created_at`, 2)} as at) as started
      where m.subscription_status is not null
    ) as s
    join (values ${prices}) as price(tier, period, amount_cents, term) on price.tier = s.plan_tier and price.period = s.period`);
}

/**
 * The community, drawn first into temporary tables so each discussion is written once, with its
 * counts: scale_post (discussions and their topic), scale_reply and scale_like. Updating the counts
 * afterwards would write every discussion twice, with its search vector and all its indexes.
 * - Authors are skewed: a few members start many discussions. About 3% are in the Gold Lounge, by Gold members.
 * - Replies go to the first 60% of the discussions only, and there far more to the first ones: a
 *   few discussions have hundreds, many have none. Each comes after its discussion and its author's
 *   joining, and before the discussion was locked.
 * - Likes come from members who take part in the space, more on the first discussions; one per member and discussion.
 */
async function drawCommunity(tx: DatabaseOrTransaction, volume: ScaleVolume) {
  await tx.execute(sql`
    create temporary table scale_post on commit drop as
    select d.n, gen_random_uuid()::text as id, d.space, a.id as author_id, a.name as author_name, a.tier as author_tier,
           topics.topic, topics.other_topic, d.place, posted.at as created_at,
           case when d.flag_draw < 0.0015 then posted.at + (now() - posted.at) * random() * 0.1 end as hidden_at,
           case when d.flag_draw between 0.002 and 0.00215 then posted.at + interval '1 hour' end as pinned_at,
           case when d.flag_draw between 0.003 and 0.008 then ${momentAfter(sql`posted.at`, 3)} end as locked_at
    from (
      select n, case when random() < 0.03 then 'gold' else 'general' end as space,
             power(random(), 1.5) as author_draw, random() as flag_draw,
             ${pick(PLACES)} as place,
             ${drawPosition(TOPICS.length)} as topic_position,
             -- The second topic is always another one.
             ${drawPosition(TOPICS.length - 1)} as other_topic_offset
      from generate_series(1, ${volume.posts}) as n
    ) as d
    cross join lateral (
      select ${nth(TOPICS, sql`d.topic_position`)} as topic,
             ${nth(TOPICS, sql`1 + (d.topic_position - 1 + d.other_topic_offset) % ${sql.raw(String(TOPICS.length))}`)} as other_topic
    ) as topics
    join scale_space using (space)
    join scale_author a on a.space = d.space and a.k = 1 + floor(d.author_draw * scale_space.size)::int
    cross join lateral (select ${momentAfter(sql`a.created_at`)} as at) as posted`);
  await run(tx, sql`alter table scale_post add primary key (n)`, sql`analyze scale_post`);
  await tx.execute(sql`
    create temporary table scale_reply on commit drop as
    select p.n as post_n, p.id as post_id, a.id as author_id, a.name as author_name, a.tier as author_tier, replied.at as created_at,
           case when random() < 0.005 then replied.at + interval '6 hours' * random() end as hidden_at
    from (
      select 1 + floor(power(random(), 1.6) * ${Math.round(volume.posts * 0.6)})::int as post_n, power(random(), 1.3) as author_draw
      from generate_series(1, ${volume.replyDraws})
    ) as d
    join scale_post p on p.n = d.post_n
    join scale_space on scale_space.space = p.space
    join scale_author a on a.space = p.space and a.k = 1 + floor(d.author_draw * scale_space.size)::int
    cross join lateral (select greatest(p.created_at, a.created_at) as earliest) as bound
    cross join lateral (
      select bound.earliest + greatest(coalesce(p.locked_at, now()) - bound.earliest, interval '0') * power(random(), 3) as at
    ) as replied
    where a.created_at < coalesce(p.locked_at, now())`);
  await tx.execute(sql`
    create temporary table scale_like (post_id text, member_id uuid, created_at timestamptz, primary key (post_id, member_id))
    on commit drop`);
  await tx.execute(sql`
    insert into scale_like (post_id, member_id, created_at)
    select p.id, a.id, ${momentAfter(sql`greatest(p.created_at, a.created_at)`, 4)}
    from (
      select 1 + floor(power(random(), 1.8) * ${volume.posts})::int as post_n, random() as member_draw
      from generate_series(1, ${volume.likeDraws})
    ) as d
    join scale_post p on p.n = d.post_n
    join scale_space on scale_space.space = p.space
    join scale_author a on a.space = p.space and a.k = 1 + floor(d.member_draw * scale_space.size)::int
    on conflict do nothing`);
  await run(tx, sql`analyze scale_reply`, sql`analyze scale_like`);
}

/**
 * Discussions with the counts they show: their likes and their visible replies. Here and below, rows
 * go in in the order a real site writes them (by time), for a realistic physical order and ids.
 */
async function seedPosts(tx: DatabaseOrTransaction) {
  const sentence = sql`format(${pick(POST_SENTENCES)}, p.topic, p.place, p.other_topic, 2 + floor(random() * 38)::int)`;
  await tx.execute(sql`
    insert into community_posts (id, author_id, user_name, author_tier, space, title, content, likes_count, replies_count,
                                 created_at, edited_at, pinned_at, locked_at, hidden_at)
    select p.id, p.author_id, p.author_name, p.author_tier, p.space,
           format(${pick(TITLE_PATTERNS)}, p.topic, p.place, p.other_topic),
           concat_ws(' ', ${sentence}, ${sentence}, ${sentence}, case when random() < 0.5 then ${sentence} end),
           coalesce(likes.total, 0), coalesce(replies.total, 0),
           p.created_at,
           case when random() < 0.05 then p.created_at + (now() - p.created_at) * random() * 0.05 end,
           p.pinned_at, p.locked_at, p.hidden_at
    from scale_post p
    left join (select post_id, count(*)::int as total from scale_like group by post_id) as likes on likes.post_id = p.id
    left join (select post_id, count(*)::int as total from scale_reply where hidden_at is null group by post_id) as replies
      on replies.post_id = p.id
    order by p.created_at`);
}

/** Replies, on their discussion's topic. */
async function seedReplies(tx: DatabaseOrTransaction) {
  await tx.execute(sql`
    insert into community_replies (post_id, author_id, author_name, author_tier, body, created_at, hidden_at)
    select r.post_id, r.author_id, r.author_name, r.author_tier,
           concat_ws(' ', format(${pick(REPLY_PATTERNS)}, p.topic, p.place, p.other_topic),
                     case when random() < 0.3 then format(${pick(POST_SENTENCES)}, p.topic, p.place, p.other_topic, 2 + floor(random() * 20)::int) end),
           r.created_at, r.hidden_at
    from scale_reply r
    join scale_post p on p.n = r.post_n
    order by r.created_at`);
}

async function seedLikes(tx: DatabaseOrTransaction) {
  await tx.execute(sql`
    insert into community_likes (post_id, member_id, created_at)
    select post_id, member_id, created_at from scale_like order by created_at`);
}

/** Reports about discussions and replies; the ones about hidden items, and many others, resolved by staff. */
async function seedReports(tx: DatabaseOrTransaction, volume: ScaleVolume) {
  await tx.execute(sql`
    insert into community_reports (post_id, reply_id, reporter_id, reason, created_at, resolved_at, resolved_by)
    select item.post_id, item.reply_id, a.id, ${pick(REPORT_REASONS)}, reported.at,
           case when item.resolved then reported.at + (now() - reported.at) * random() * 0.2 end,
           case when item.resolved then ${staffEmail} end
    from (
      select p.id as post_id, null::uuid as reply_id, p.space, p.created_at, p.hidden_at is not null or random() < 0.6 as resolved,
             random() as reporter_draw
      from scale_post p
      where random() < ${volume.postReports / volume.posts}
      union all
      select r.post_id, r.id, p.space, r.created_at, r.hidden_at is not null or random() < 0.6, random()
      from community_replies r
      join scale_post p on p.id = r.post_id
      where random() < ${volume.replyReports / volume.replyDraws}
    ) as item
    join scale_space on scale_space.space = item.space
    join scale_author a on a.space = item.space and a.k = 1 + floor(item.reporter_draw * scale_space.size)::int
    cross join lateral (select ${momentAfter(sql`greatest(item.created_at, a.created_at)`, 3)} as at) as reported
    on conflict do nothing`);
}

/**
 * Enrolments in the courses each member's tier allows, paid members in more of them; kept in
 * scale_enrolment with how many lessons the member has done (all of them for about a quarter).
 */
async function seedEnrolments(tx: DatabaseOrTransaction) {
  await tx.execute(sql`
    create temporary table scale_enrolment on commit drop as
    select allowed.member_id, allowed.course_id, ${momentAfter(sql`allowed.member_created_at`)} as enrolled_at,
           round(coalesce(lesson_count.total, 0) * least(1, 1.3 * random()))::int as lessons_done
    from (
      -- Drawn here, once per member and course: a condition on random() alone would be decided once per member.
      select m.id as member_id, m.tier, m.created_at as member_created_at, c.id as course_id, random() as draw
      from scale_member m
      join courses c on c.status <> 'draft' and ${tierRank(sql`c.tier`)} <= ${tierRank(sql`m.tier`)}
    ) as allowed
    left join (select course_id, count(*) as total from lessons group by course_id) as lesson_count using (course_id)
    where allowed.draw < case allowed.tier when 'free' then 0.5 when 'bronze' then 0.55 when 'silver' then 0.6 else 0.65 end`);
  await tx.execute(sql`
    create temporary table scale_lesson on commit drop as
    select id, course_id, row_number() over (partition by course_id order by position, id)::int as ordinal,
           count(*) over (partition by course_id)::int as lesson_count,
           -- Lengths are written m:ss or h:mm:ss; anything else counts as ten minutes.
           case when duration ~ '^(\\d+:)?\\d+:\\d+$'
                then extract(epoch from (case when duration ~ '^\\d+:\\d+$' then '0:' || duration else duration end)::interval)
                else 600
           end as duration_seconds
    from lessons`);
  await run(tx, sql`analyze scale_enrolment`, sql`analyze scale_lesson`);
  await tx.execute(sql`
    insert into enrolments (member_id, course_id, enrolled_at)
    select member_id, course_id, enrolled_at from scale_enrolment order by enrolled_at`);
}

/** The lessons each member did, in order, spread between enrolling and now. */
async function seedLessonProgress(tx: DatabaseOrTransaction) {
  await tx.execute(sql`
    insert into lesson_progress (member_id, lesson_id, completed_at)
    select e.member_id, l.id, e.enrolled_at + (now() - e.enrolled_at) * power(l.ordinal / (l.lesson_count + 1.0), 2)
    from scale_enrolment e
    join scale_lesson l on l.course_id = e.course_id and l.ordinal <= e.lessons_done`);
}

/** Where most members stopped in the next lesson of a course they are part-way through. */
async function seedLessonPositions(tx: DatabaseOrTransaction) {
  await tx.execute(sql`
    insert into lesson_positions (member_id, lesson_id, position_seconds, duration_seconds, updated_at)
    select e.member_id, l.id, round((l.duration_seconds * random())::numeric, 1), l.duration_seconds, ${momentAfter(sql`e.enrolled_at`, 0.5)}
    from scale_enrolment e
    join scale_lesson l on l.course_id = e.course_id and l.ordinal = e.lessons_done + 1
    where random() < 0.7`);
}

/** A certificate for every course (that gives one) a member has done every lesson of, issued at the last one. */
async function seedCertificates(tx: DatabaseOrTransaction) {
  await tx.execute(sql`
    insert into certificates (member_id, course_id, code, member_name, course_title, issued_at)
    select m.id, c.id,
           -- RP-XXXX-XXXX-XXXX in the site's alphabet (no 0 or 1), from the member and the course.
           'RP-' || substr(code.chars, 1, 4) || '-' || substr(code.chars, 5, 4) || '-' || substr(code.chars, 9, 4),
           m.name, c.title, done.last_completed_at
    from (
      select lp.member_id, l.course_id, count(*) as lessons_done, max(lp.completed_at) as last_completed_at
      from lesson_progress lp
      join scale_lesson l on l.id = lp.lesson_id
      group by lp.member_id, l.course_id
    ) as done
    join scale_member m on m.id = done.member_id
    join courses c on c.id = done.course_id and c.certificate
    cross join lateral (select translate(upper(md5(m.id::text || c.id)), '01', 'XY') as chars) as code
    where done.lessons_done = (select count(*) from lessons where lessons.course_id = c.id)`);
}

/** Signed-in devices: mostly still valid, some expired or signed out. Their tokens are unknown to anyone. */
async function seedSessions(tx: DatabaseOrTransaction, volume: ScaleVolume) {
  await tx.execute(sql`
    insert into sessions (token_hash, kind, member_id, created_at, last_seen_at, expires_at, revoked_at, user_agent, ip_address)
    select encode(sha256(convert_to(gen_random_uuid()::text || d.n, 'UTF8')), 'hex'), 'member', m.id,
           seen.created_at as created_at, seen.last_seen_at,
           least(seen.last_seen_at + interval '14 days', seen.created_at + interval '60 days'),
           case when random() < 0.05 then seen.last_seen_at end,
           ${pick(USER_AGENTS)}, ${documentationAddress}
    from (
      select n, 1 + floor(random() * ${volume.members})::int as member_n,
             -- Most were seen in the last few days, some over two weeks ago (expired).
             now() - interval '20 days' * power(random(), 4) as last_seen_at
      from generate_series(1, ${volume.sessions}) as n
    ) as d
    join scale_member m on m.n = d.member_n
    cross join lateral (
      select greatest(d.last_seen_at - interval '40 days' * random(), m.created_at) as created_at,
             greatest(d.last_seen_at, m.created_at) as last_seen_at
    ) as seen
    order by created_at`);
}

async function seedAuditLog(tx: DatabaseOrTransaction, volume: ScaleVolume) {
  await tx.execute(sql`
    insert into audit_log (actor_email, action, target, old_value, new_value, created_at)
    select ${staffEmail}, d.action,
           case when d.action like 'member.%' or d.action like 'billing.%' then m.email
                when d.action like 'course.%' or d.action like 'lesson.%' then coalesce(catalogue.ids[1 + floor(random() * cardinality(catalogue.ids))::int], 'course')
                else 'site'
           end,
           case when d.action = 'member.tier' then jsonb_build_object('tier', 'free') end,
           case when d.action = 'member.tier' then jsonb_build_object('tier', m.tier) end,
           ${momentAfter(sql`m.created_at`)} as created_at
    from (
      select ${pick(AUDIT_ACTIONS)} as action, 1 + floor(random() * ${volume.members})::int as member_n
      from generate_series(1, ${volume.auditEntries})
    ) as d
    join scale_member m on m.n = d.member_n
    cross join (select array_agg(id) as ids from courses) as catalogue
    order by created_at`);
}

/** Mail already delivered (status 'sent'): a pending message would really be sent by the mail worker. */
async function seedOutbox(tx: DatabaseOrTransaction, volume: ScaleVolume) {
  await tx.execute(sql`
    insert into outbox_messages (kind, to_address, subject, html, text, status, attempts, next_attempt_at, created_at, sent_at)
    select ${nth(MAIL_KINDS, sql`d.kind_position`)}, m.email, ${nth(MAIL_SUBJECTS, sql`d.kind_position`)},
           '<p>Hi ' || m.name || ',</p><p>' || ${nth(MAIL_SUBJECTS, sql`d.kind_position`)} || '.</p>',
           'Hi ' || m.name || E',\n\n' || ${nth(MAIL_SUBJECTS, sql`d.kind_position`)} || '.',
           'sent', 1, queued.at, queued.at as created_at, queued.at + interval '3 seconds' * random()
    from (
      select ${drawPosition(MAIL_KINDS.length)} as kind_position, 1 + floor(random() * ${volume.members})::int as member_n
      from generate_series(1, ${volume.outboxMessages})
    ) as d
    join scale_member m on m.n = d.member_n
    cross join lateral (select ${momentAfter(sql`m.created_at`)} as at) as queued
    order by created_at`);
}

/** The file library's rows; the files themselves are not stored anywhere. */
async function seedUploadedFiles(tx: DatabaseOrTransaction, volume: ScaleVolume) {
  await tx.execute(sql`
    insert into uploaded_files (filename, folder, storage_key, content_type, size_bytes, access_tier, uploaded_by, created_at)
    select replace(lower(${pick(TOPICS)}), ' ', '-') || '-' || d.n || '.' || ${nth(FILE_EXTENSIONS, sql`d.kind_position`)},
           ${nth(FILE_FOLDERS, sql`d.kind_position`)},
           ${nth(FILE_FOLDERS, sql`d.kind_position`)} || '/scale-' || d.n || '.' || ${nth(FILE_EXTENSIONS, sql`d.kind_position`)},
           ${nth(FILE_TYPES, sql`d.kind_position`)},
           (20000 + random() * 50000000)::int,
           -- Images are public (shown on public pages); the rest are for members from a tier.
           case when ${nth(FILE_FOLDERS, sql`d.kind_position`)} <> 'images' then ${pick(TIERS)} end,
           ${staffEmail}, now() - interval '3 years' * random()
    from (select n, ${drawPosition(FILE_FOLDERS.length)} as kind_position from generate_series(1, ${volume.uploadedFiles}) as n) as d`);
}

async function seedContactMessages(tx: DatabaseOrTransaction, volume: ScaleVolume) {
  await tx.execute(sql`
    insert into contact_messages (name, email, subject, message, ip_address, handled, handled_at, created_at)
    select d.first_name || ' ' || d.last_name, 'contact' || d.n || ${`@${SCALE_EMAIL_DOMAIN}`}, ${pick(CONTACT_SUBJECTS)},
           format('Hello, I am an agent in %s. %s', ${pick(PLACES)}, format(${pick(POST_SENTENCES)}, ${pick(TOPICS)}, ${pick(PLACES)}, ${pick(TOPICS)}, 3)),
           ${documentationAddress}, d.handled, case when d.handled then d.created_at + interval '2 days' * random() end, d.created_at
    from (
      select n, ${pick(FIRST_NAMES)} as first_name, ${pick(LAST_NAMES)} as last_name, random() < 0.8 as handled,
             now() - interval '3 years' * random() as created_at
      from generate_series(1, ${volume.contactMessages}) as n
    ) as d
    order by d.created_at`);
}

/** Fresh statistics and visibility maps, so the first benchmark sees the plans and index-only scans of a settled database. */
export async function analyzeScaleTables(db: Database) {
  await db.execute(sql.raw(`vacuum (analyze) ${FILLED_TABLES.join(', ')}`));
}

export async function countScaleTables(db: Database): Promise<{ table: string; rows: number }[]> {
  const counts = FILLED_TABLES.map(
    (table, position) => sql`select ${position}::int as position, ${table} as table, count(*)::int as rows from ${sql.identifier(table)}`,
  );
  return rowsOf(db, sql`${sql.join(counts, sql` union all `)} order by position`);
}
