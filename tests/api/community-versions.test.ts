import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMUNITY_LIST_KEY } from '../../common/request-context.ts';
import { recordingReads, type Statement } from '../helpers/query-plans.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// What each community change announces (migrations 0040 and 0043), as a server process hears it: a
// like or a reply stales the discussion it touched and the member whose post it answered; only a
// change to which discussions are listed stales the list. A member's kept dashboard holds or goes
// stale by exactly these (server/cache/own-page-cache.ts).

let t: TestApp;
let author: MemberLogin;
let neighbour: MemberLogin;
let reader: MemberLogin;
beforeAll(async () => {
  t = await createTestApp();
  [author, neighbour, reader] = [await t.loginAs('bronze'), await t.loginAs('bronze'), await t.loginAs('bronze')];
}, 60_000);
afterAll(() => t.close());

const community = () => t.app.dataVersions.find((version) => version.keyedBy === 'discussion')!;
const members = () => t.app.dataVersions.find((version) => version.keyedBy === 'member')!;

async function post(login: MemberLogin, title: string): Promise<string> {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/community/posts',
    headers: login.headers,
    payload: { title, body: 'Words.' },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return (answer.json() as { id: string }).id;
}

/** Waits until the process has heard every announcement so far. */
async function heard(): Promise<void> {
  await expect.poll(() => community().versionOf('nothing-at-all').startsWith('k'), { timeout: 5_000 }).toBe(true);
}

describe('what community changes announce', () => {
  it('a like stales the discussion liked, not the list, nor another discussion', async () => {
    const [liked, other] = [await post(author, 'Liked one'), await post(author, 'Other one')];
    await heard();
    const before = {
      list: community().versionOf(COMMUNITY_LIST_KEY),
      liked: community().versionOf(liked),
      other: community().versionOf(other),
    };
    const like = await t.app.inject({ method: 'PUT', url: `/api/community/posts/${liked}/like`, headers: reader.headers });
    expect(like.statusCode, like.body).toBe(200);
    await heard();
    expect(community().versionOf(liked)).not.toBe(before.liked);
    expect(community().versionOf(COMMUNITY_LIST_KEY)).toBe(before.list);
    expect(community().versionOf(other)).toBe(before.other);
  });

  it('a new discussion stales the list; hiding one does too', async () => {
    await heard();
    const list = community().versionOf(COMMUNITY_LIST_KEY);
    const id = await post(neighbour, 'Listed anew');
    await heard();
    const afterPost = community().versionOf(COMMUNITY_LIST_KEY);
    expect(afterPost).not.toBe(list);
    const staff = await t.loginAsStaff();
    const hidden = await t.app.inject({
      method: 'POST',
      url: `/api/admin/community/posts/${id}`,
      headers: { authorization: `Bearer ${staff.token}` },
      payload: { action: 'hide' },
    });
    expect(hidden.statusCode, hidden.body).toBeLessThan(300);
    await heard();
    expect(community().versionOf(COMMUNITY_LIST_KEY)).not.toBe(afterPost);
  });

  it("a reply stales its discussion and the discussion's author, and no other member", async () => {
    const id = await post(author, 'Answer me');
    await heard();
    await expect.poll(() => members().versionOf(author.memberId).startsWith('k'), { timeout: 5_000 }).toBe(true);
    const before = { author: members().versionOf(author.memberId), reader: members().versionOf(reader.memberId) };
    const replied = await t.app.inject({
      method: 'POST',
      url: `/api/community/posts/${id}/replies`,
      headers: neighbour.headers,
      payload: { body: 'Here you are.' },
    });
    expect(replied.statusCode, replied.body).toBe(201);
    await expect.poll(() => members().versionOf(author.memberId), { timeout: 5_000 }).not.toBe(before.author);
    await expect.poll(() => members().versionOf(reader.memberId).startsWith('k'), { timeout: 5_000 }).toBe(true);
    expect(members().versionOf(reader.memberId)).toBe(before.reader);
  });
});

describe('the community’s first pages, kept while it holds', () => {
  it('reads a search’s first page once for every member, and afresh after a like, which it shows', async () => {
    const id = await post(author, 'Kept search about escrow timelines');
    await heard();
    const search = (login: MemberLogin) =>
      t.app.inject({ url: '/api/community/feed?q=escrow%20timelines', headers: login.headers }).then((answer) => {
        expect(answer.statusCode, answer.body).toBe(200);
        return answer.json() as { posts: { id: string; likes_count: number; liked_by_me: boolean }[]; total: number };
      });
    const fullText = (reads: Statement[]) => reads.filter((read) => read.text.includes('websearch_to_tsquery'));
    const first = await recordingReads(t.database, () => search(reader));
    expect(fullText(first.reads).length).toBeGreaterThan(0);
    expect(first.result.posts.map((each) => each.id)).toContain(id);
    // Another member's same search: from memory, not a full-text reading again.
    const again = await recordingReads(t.database, () => search(neighbour));
    expect(fullText(again.reads)).toEqual([]);
    expect(again.result).toMatchObject({ total: first.result.total });

    const like = await t.app.inject({ method: 'PUT', url: `/api/community/posts/${id}/like`, headers: reader.headers });
    expect(like.statusCode, like.body).toBe(200);
    const after = await recordingReads(t.database, () => search(reader));
    expect(fullText(after.reads).length).toBeGreaterThan(0);
    expect(after.result.posts.find((each) => each.id === id)).toMatchObject({ likes_count: 1, liked_by_me: true });
  });

  it('reads which discussions of a page a member liked once while they hold, afresh after their own like or unlike, never another member’s', async () => {
    const id = await post(author, 'Liked on the first page');
    await heard();
    const feed = (login: MemberLogin) =>
      t.app.inject({ url: '/api/community/feed', headers: login.headers }).then((answer) => {
        expect(answer.statusCode, answer.body).toBe(200);
        return (answer.json() as { posts: { id: string; likes_count: number; liked_by_me: boolean }[] }).posts.find(
          (each) => each.id === id,
        )!;
      });
    const likesRead = (reads: Statement[]) => reads.filter((read) => read.text.includes('"community_likes"'));
    expect(await feed(reader)).toMatchObject({ liked_by_me: false });
    // Read again, nothing changed: which discussions the reader liked comes from memory.
    const again = await recordingReads(t.database, () => feed(reader));
    expect(likesRead(again.reads)).toEqual([]);
    expect(again.result).toMatchObject({ liked_by_me: false });

    expect((await t.app.inject({ method: 'PUT', url: `/api/community/posts/${id}/like`, headers: reader.headers })).statusCode).toBe(200);
    const liked = await recordingReads(t.database, () => feed(reader));
    expect(likesRead(liked.reads).length).toBeGreaterThan(0);
    expect(liked.result).toMatchObject({ liked_by_me: true, likes_count: 1 });
    // Another member reading the same page: their own likes, not the reader's.
    expect(await feed(neighbour)).toMatchObject({ liked_by_me: false, likes_count: 1 });

    expect((await t.app.inject({ method: 'DELETE', url: `/api/community/posts/${id}/like`, headers: reader.headers })).statusCode).toBe(
      200,
    );
    expect(await feed(reader)).toMatchObject({ liked_by_me: false, likes_count: 0 });
  });
});
