import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../db/schema.ts';
import { recordingReads } from '../helpers/query-plans.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// A member's community feed and search, kept for their session as sent (server/cache/own-answers.ts):
// read again, it is answered without a query; it never outlives what it shows, and never reaches
// another session, a session signed out since, or a tier lost since.

let t: TestApp;
let author: MemberLogin;
let reader: MemberLogin;
beforeAll(async () => {
  t = await createTestApp();
  [author, reader] = [await t.loginAs('bronze'), await t.loginAs('bronze')];
}, 60_000);
afterAll(() => t.close());

interface Feed {
  posts: { id: string; title: string; likes_count: number; liked_by_me: boolean; pinned: boolean }[];
  total: number;
}

async function read(login: { headers: Record<string, string> }, url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ url, headers: { ...login.headers, ...headers } });
}

async function feed(login: MemberLogin, url = '/api/community/feed'): Promise<Feed> {
  const answer = await read(login, url);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as Feed;
}

/** Members' reads answered from a kept copy since the server started, as `/metrics` counts them. */
async function keptHits(): Promise<number> {
  const text = (await t.app.inject({ url: '/metrics' })).body;
  return Number(/^own_answer_lookups\{result="hit"\} (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
}

async function post(login: MemberLogin, title: string, body = 'Words.'): Promise<string> {
  const answer = await t.app.inject({ method: 'POST', url: '/api/community/posts', headers: login.headers, payload: { title, body } });
  expect(answer.statusCode, answer.body).toBe(201);
  return (answer.json() as { id: string }).id;
}

describe("a member's feed, kept for their session", () => {
  it('answers the same read again with the same bytes and headers, asking the database nothing', async () => {
    await post(author, 'Kept feed, read twice');
    const compressed = { 'accept-encoding': 'br' };
    const first = await read(reader, '/api/community/feed', compressed);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    const hitsBefore = await keptHits();
    const again = await recordingReads(t.database, () => read(reader, '/api/community/feed', compressed));
    expect(again.reads).toEqual([]);
    expect(await keptHits()).toBe(hitsBefore + 1);
    expect(again.result.statusCode).toBe(200);
    expect(again.result.rawPayload.equals(first.rawPayload)).toBe(true);
    for (const name of ['content-type', 'content-encoding', 'vary', 'cache-control'])
      expect(again.result.headers[name], name).toBe(first.headers[name]);
    expect(again.result.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('shows a discussion started since at the head of the newest, and a like since on one it shows', async () => {
    const shown = await post(author, 'Shown before the new one');
    expect((await feed(reader)).posts.find((each) => !each.pinned)?.id).toBe(shown);
    const started = await post(author, 'Started after the kept read');
    expect((await feed(reader)).posts.find((each) => !each.pinned)?.id).toBe(started);

    expect((await t.app.inject({ method: 'PUT', url: `/api/community/posts/${shown}/like`, headers: author.headers })).statusCode).toBe(
      200,
    );
    expect((await feed(reader)).posts.find((each) => each.id === shown)).toMatchObject({ likes_count: 1, liked_by_me: false });
  });

  it('finds a discussion edited since to match a kept search', async () => {
    const words = 'lighthouse escrow harbour';
    const url = `/api/community/feed?q=${encodeURIComponent(words)}`;
    const matching = await post(author, `About the ${words}`);
    const other = await post(author, 'Nothing to do with it');
    expect((await feed(reader, url)).posts.map((each) => each.id)).toEqual([matching]);
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/community/posts/${other}`,
      headers: author.headers,
      payload: { title: `Now about the ${words} too`, body: 'Words.' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const found = await feed(reader, url);
    expect(found.posts.map((each) => each.id).sort()).toEqual([matching, other].sort());
    expect(found.total).toBe(2);
  });

  it("never answers another member with a member's kept feed, nor one session with another's", async () => {
    const neighbour = await t.loginAs('bronze');
    const id = await post(neighbour, 'Liked by the reader only');
    expect((await t.app.inject({ method: 'PUT', url: `/api/community/posts/${id}/like`, headers: reader.headers })).statusCode).toBe(200);
    // A server started since sees both members' own data at the same version: only the session tells their answers apart.
    const server = await t.anotherServer();
    const likedOnServer = async (login: MemberLogin) => {
      const answer = await server.inject({ url: '/api/community/feed', headers: login.headers });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as Feed).posts.find((each) => each.id === id)?.liked_by_me;
    };
    expect(await likedOnServer(reader)).toBe(true);
    expect(await likedOnServer(neighbour)).toBe(false);
    expect((await feed(reader)).posts.find((each) => each.id === id)).toMatchObject({ liked_by_me: true });
    expect((await feed(neighbour)).posts.find((each) => each.id === id)).toMatchObject({ liked_by_me: false });
    // The same member signed in elsewhere gets an answer made for that session, the same one.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: reader.email, password: reader.password },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    const other = { headers: { authorization: `Bearer ${(elsewhere.json() as { token: string }).token}` } };
    const answer = await read(other, '/api/community/feed');
    expect((answer.json() as Feed).posts.find((each) => each.id === id)).toMatchObject({ liked_by_me: true });
  });

  it('refuses a session signed out since, though its feed was kept', async () => {
    const member = await t.loginAs('bronze');
    await feed(member);
    await feed(member);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: member.headers });
    expect(out.statusCode, out.body).toBe(200);
    expect((await read(member, '/api/community/feed')).statusCode).toBe(401);
  });

  it('refuses the Gold Lounge to a member who lost Gold since their kept read of it', async () => {
    const gold = await t.loginAs('gold');
    await feed(gold, '/api/community/feed?space=gold');
    await feed(gold, '/api/community/feed?space=gold');
    await t.db.update(members).set({ membershipTier: 'bronze', complimentaryTier: null }).where(eq(members.id, gold.memberId));
    await expect.poll(async () => (await read(gold, '/api/community/feed?space=gold')).statusCode, { timeout: 5_000 }).toBe(403);
  });
});
