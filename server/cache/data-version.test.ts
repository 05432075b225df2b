import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { DataVersion } from './data-version.ts';
import { shareableAnswer, VisitorCache } from './visitor-cache.ts';

// The community's changes name the discussions they touched (migration 0030): a like makes stale
// that discussion's page and the feed, never another discussion's page.

const log = { warn: () => {} };
let handle: DatabaseHandle;
let catalogue: DataVersion;
let community: DataVersion;
let member: DataVersion;

beforeAll(async () => {
  handle = await openDatabase({ kind: 'memory' });
  await handle.migrate();
  catalogue = new DataVersion(handle, log, 'public');
  community = new DataVersion(handle, log, 'community', { keyedBy: 'discussion' });
  member = new DataVersion(handle, log, 'member', { keyedBy: 'member' });
  await Promise.all([catalogue.start(), community.start(), member.start()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([catalogue.stop(), community.stop(), member.stop()]);
  await handle.close();
});

const newPost = async (title: string) => {
  const result = (await handle.db.execute(
    sql`insert into community_posts (user_name, title, content) values ('Ana', ${title}, 'Text') returning id`,
  )) as unknown as { rows: { id: string }[] };
  return result.rows[0]!.id;
};

/** Waits until the process has heard of every change so far (of the community's, unless told). */
async function heard(version = community): Promise<void> {
  // The number first (as after a write of this process), then the announcement that names the change.
  await version.refresh();
  for (let tries = 0; tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (!version.versionOf('any').startsWith('g')) return;
  }
  throw new Error('the announcement never came');
}

describe('the community version, per discussion', () => {
  it('moves for the discussion a change touched and keeps every other one', async () => {
    const [first, second] = [await newPost('First'), await newPost('Second')];
    await community.refresh();
    await heard();
    const before = { first: community.versionOf(first), second: community.versionOf(second), feed: community.current };

    await handle.db.execute(sql`update community_posts set likes_count = likes_count + 1 where id = ${first}`);
    await heard();
    expect(community.current).toBeGreaterThan(before.feed);
    expect(community.versionOf(first)).not.toBe(before.first);
    expect(community.versionOf(second)).toBe(before.second);

    // A reply names its discussion too.
    const afterLike = community.versionOf(first);
    await handle.db.execute(sql`insert into community_replies (post_id, author_name, body) values (${second}, 'Ben', 'Agreed')`);
    await heard();
    expect(community.versionOf(second)).not.toBe(before.second);
    expect(community.versionOf(first)).toBe(afterLike);
  });

  it('keeps a visitor’s page of one discussion through a like on another, and not the feed', async () => {
    const [liked, quiet] = [await newPost('Liked'), await newPost('Quiet')];
    await community.refresh();
    await heard();
    const cache = new VisitorCache(catalogue, community);
    const keep = async (key: string, text: string) =>
      cache.store(key, await shareableAnswer(cache.versionFor(key), 200, {}, Buffer.from(text)));
    await keep(`page:/community/${quiet}`, 'quiet page');
    await keep(`api:/api/community/posts/${quiet}`, 'quiet answer');
    await keep(`page:/community/${liked}`, 'liked page');
    await keep('page:/community', 'feed');

    await handle.db.execute(sql`update community_posts set likes_count = likes_count + 1 where id = ${liked}`);
    await heard();
    expect(cache.lookup(`page:/community/${quiet}`)?.identity.toString()).toBe('quiet page');
    expect(cache.lookup(`api:/api/community/posts/${quiet}`)?.identity.toString()).toBe('quiet answer');
    expect(cache.lookup(`page:/community/${liked}`)).toBeUndefined();
    expect(cache.lookup('page:/community')).toBeUndefined();
  });

  it('counts everything as changed when it knows of a change it has not heard named', async () => {
    const post = await newPost('Unheard');
    await community.refresh();
    await heard();
    const known = community.versionOf(post);
    // A change made while nobody listens (as when an announcement is lost): the poll reads its number.
    await handle.db.execute(sql`update data_versions set version = version + 1 where name = 'community'`);
    await community.refresh();
    expect(community.versionOf(post)).not.toBe(known);
  });
});

describe("the members' version, per member (migration 0040)", () => {
  const newMember = async (name: string) => {
    const result = (await handle.db.execute(
      sql`insert into members (name, email, password_hash) values (${name}, ${`${name.toLowerCase()}-${Date.now()}@example.com`}, 'x') returning id`,
    )) as unknown as { rows: { id: string }[] };
    return result.rows[0]!.id;
  };

  it("moves for the member whose data changed (a goal, a notification) and keeps every other member's", async () => {
    const [ana, ben] = [await newMember('Ana'), await newMember('Ben')];
    await heard(member);
    const anaBefore = member.versionOf(ana);
    const benBefore = member.versionOf(ben);

    await handle.db.execute(sql`insert into goals (member_id, kind, title, target, period) values (${ben}, 'count', 'Calls', 10, 'week')`);
    await heard(member);
    expect(member.versionOf(ben)).not.toBe(benBefore);
    expect(member.versionOf(ana)).toBe(anaBefore);

    const benAfterGoal = member.versionOf(ben);
    await handle.db.execute(
      sql`insert into notifications (member_id, kind, group_key, title, url) values (${ana}, 'reply', ${`reply:${ana}`}, 'A reply', '/community')`,
    );
    await heard(member);
    expect(member.versionOf(ana)).not.toBe(anaBefore);
    expect(member.versionOf(ben)).toBe(benAfterGoal);
  });

  it('moves no version for a statement that changed no row', async () => {
    await newMember('Cleo');
    await heard(member);
    await heard(community);
    const before = { member: member.current, community: community.current };
    await handle.db.execute(sql`update members set name = 'Nobody' where email = 'no-such-member@example.com'`);
    await handle.db.execute(sql`delete from notifications where title = 'never written'`);
    await handle.db.execute(sql`update community_posts set likes_count = likes_count + 1 where title = 'never written'`);
    await member.refresh();
    await community.refresh();
    expect({ member: member.current, community: community.current }).toEqual(before);
  });
});
