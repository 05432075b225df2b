import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lessons } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// The answers kept for visitors (public API reads here; pages in tests/e2e/cache.test.ts): who gets
// them, and how soon a change reaches them, in this process and in another one.

let t: TestApp;
let staffHeaders: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  staffHeaders = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
});
afterAll(() => t.close());

const hero = (headline: string) => ({ headline, subheadline: 'Sub', cta_text: 'Join now' });
const saveHero = (app: TestApp['app'], headline: string) =>
  app.inject({ method: 'POST', url: '/api/admin/content/homepage_hero', headers: staffHeaders, payload: hero(headline) });

describe('answers kept for visitors', () => {
  it('are the same bytes for every visitor, compressed as each asks, and revalidated with a 304', async () => {
    const first = await t.app.inject({ url: '/api/courses', headers: { 'accept-encoding': 'br, gzip' } });
    // The first answer is made for this visitor and kept once compressed, in the background (which
    // takes longer on a busy machine); the next ones come from what was kept.
    const keptAnswer = async () => {
      for (let tries = 0; ; tries++) {
        const answer = await t.app.inject({ url: '/api/courses', headers: { 'accept-encoding': 'br' } });
        if (answer.headers['cache-control'] === 'private, no-cache' || tries === 50) return answer;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const kept = await keptAnswer();
    expect(kept.headers['cache-control']).toBe('private, no-cache');
    expect(kept.headers['content-encoding']).toBe('br');
    expect(kept.headers.vary).toBe('Accept-Encoding, Cookie, Authorization');
    const plain = first.headers['content-encoding'] === 'br' ? brotliDecompressSync(first.rawPayload) : first.rawPayload;
    expect(brotliDecompressSync(kept.rawPayload).toString()).toBe(plain.toString());
    const gzipped = await t.app.inject({ url: '/api/courses', headers: { 'accept-encoding': 'gzip' } });
    expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString())).toEqual(JSON.parse(plain.toString()));
    const revalidated = await t.app.inject({ url: '/api/courses', headers: { 'if-none-match': String(kept.headers.etag) } });
    expect(revalidated.statusCode).toBe(304);
  });

  it('never reach a member, whose answer depends on their tier', async () => {
    // A visitor's lessons (no videos) are kept first...
    const visitor = await t.app.inject({ url: '/api/courses/luxury-market/lessons' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await t.app.inject({ url: '/api/courses/luxury-market/lessons' })).json()).toEqual(visitor.json());
    expect(visitor.json().every((lesson: { video_url: string | null }) => lesson.video_url === null)).toBe(true);
    // ...and a Gold member, by token or by cookie, still gets the videos their tier opens.
    const gold = await t.loginAs('gold');
    for (const headers of [gold.headers, { cookie: `rp_session=${gold.token}` }]) {
      const member = await t.app.inject({ url: '/api/courses/luxury-market/lessons', headers });
      expect(member.headers.etag).toBeUndefined();
      expect(member.json().some((lesson: { video_url: string | null }) => lesson.video_url !== null)).toBe(true);
    }
  });

  it('change at once when staff change the data, in this process', async () => {
    expect((await saveHero(t.app, 'Before the change')).statusCode).toBe(200);
    expect((await t.app.inject('/api/content/homepage_hero')).json().data.headline).toBe('Before the change');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await saveHero(t.app, 'After the change')).statusCode).toBe(200);
    expect((await t.app.inject('/api/content/homepage_hero')).json().data.headline).toBe('After the change');
  });

  it('change in another server process within 2 seconds, however the data changed', async () => {
    const other = await t.anotherServer();
    await saveHero(t.app, 'Seen everywhere');
    const headline = async () => (await other.inject('/api/content/homepage_hero')).json().data.headline;
    await expect.poll(headline, { timeout: 2000, interval: 50 }).toBe('Seen everywhere');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await headline()).toBe('Seen everywhere');

    await saveHero(t.app, 'Changed again');
    await expect.poll(headline, { timeout: 2000, interval: 50 }).toBe('Changed again');

    // A change made straight in the database (a migration, a script) reaches the kept answers too.
    const titles = async () =>
      ((await other.inject('/api/courses/first-90-days/lessons')).json() as { title: string }[]).map((lesson) => lesson.title);
    expect(await titles()).not.toContain('Renamed by a script');
    await t.db.update(lessons).set({ title: 'Renamed by a script' }).where(eq(lessons.id, 'first-90-days-l1'));
    await expect.poll(titles, { timeout: 2000, interval: 50 }).toContain('Renamed by a script');
  });
});
