import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMUNITY_PREVIEW_POSTS } from '../../common/limits.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = async <T>(url: string, headers?: Record<string, string>) => {
  const response = await t.app.inject({ url, headers });
  expect(response.statusCode, url).toBe(200);
  return response.json() as T;
};

describe('GET /api/courses/:id and lessons', () => {
  it('returns one course with the spec fields and its lessons in order', async () => {
    const course = await get<Record<string, unknown>>('/api/courses/first-90-days');
    expect(course).toMatchObject({ id: 'first-90-days', tier: 'free', category: 'business', lesson_count: 6 });
    const lessons = await get<Record<string, unknown>[]>('/api/courses/first-90-days/lessons');
    expect(lessons).toHaveLength(6);
    expect(Object.keys(lessons[0]!).sort()).toEqual([
      'attachments',
      'description',
      'duration',
      'free_preview',
      'has_video',
      'id',
      'title',
      'video_url',
    ]);
    expect(lessons[0]!.title).toBe('Setting Up Your Business Like a Business');
  });

  it('answers 404 with a detail for lessons of an unknown course', async () => {
    const response = await t.app.inject('/api/courses/unknown/lessons');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Course not found' });
  });

  it('never sends a video URL to a visitor, even for a free course, nor for a forged token', async () => {
    const asVisitor = await get<{ video_url: string | null }[]>('/api/courses/first-90-days/lessons');
    expect(asVisitor.every((lesson) => lesson.video_url === null)).toBe(true);
    const forged = await get<{ video_url: string | null }[]>('/api/courses/first-90-days/lessons', { authorization: 'Bearer forged' });
    expect(forged.every((lesson) => lesson.video_url === null)).toBe(true);
    const free = await t.loginAs('free');
    const asMember = await get<{ video_url: string | null }[]>('/api/courses/first-90-days/lessons', free.headers);
    // Entitled members get the lesson's checked video address, never a public file.
    expect(asMember.every((lesson) => lesson.video_url?.startsWith('/api/lessons/'))).toBe(true);
  });
});

describe('GET /api/podcast/episodes', () => {
  it('lists episodes newest first with the public fields', async () => {
    const episodes = await get<{ published_at: string; spotify_url: string }[]>('/api/podcast/episodes');
    expect(episodes.length).toBeGreaterThanOrEqual(6);
    const dates = episodes.map((episode) => episode.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(Object.keys(episodes[0]!).sort()).toEqual(
      ['description', 'duration', 'episode', 'id', 'published_at', 'season', 'spotify_url', 'thumbnail', 'title'].sort(),
    );
  });
});

describe('GET /api/podcast/episodes/pages', () => {
  it('pages every episode newest first, and refuses a page that is not there', async () => {
    const all = await get<{ id: string }[]>('/api/podcast/episodes');
    const first = await get<{ episodes: { id: string }[]; page: number; pages: number; total: number }>('/api/podcast/episodes/pages');
    expect(first).toMatchObject({ page: 1, pages: Math.ceil(all.length / 6), total: all.length });
    expect(first.episodes.map((episode) => episode.id)).toEqual(all.slice(0, 6).map((episode) => episode.id));
    const second = await get<{ episodes: { id: string }[] }>('/api/podcast/episodes/pages?page=2');
    expect(second.episodes.map((episode) => episode.id)).toEqual(all.slice(6, 12).map((episode) => episode.id));

    const past = await t.app.inject('/api/podcast/episodes/pages?page=40');
    expect(past.statusCode).toBe(404);
    expect(past.json().detail).toBe('There is no such page of episodes.');
    const word = await t.app.inject('/api/podcast/episodes/pages?page=two');
    expect(word.statusCode).toBe(400);
    expect(word.json().detail).toMatch(/The page is a number/);
  });
});

describe('GET /api/resources', () => {
  type ResourceOut = { id: string; tier_required: string; download_url: string | null; has_download: boolean };
  it('sends a download URL only to a member whose tier reaches tier_required', async () => {
    const visitor = await get<ResourceOut[]>('/api/resources');
    expect(visitor.every((resource) => resource.download_url === null)).toBe(true);
    expect(visitor.some((resource) => resource.has_download)).toBe(true);

    const silver = await t.loginAs('silver');
    const asSilver = await get<ResourceOut[]>('/api/resources', silver.headers);
    for (const resource of asSilver.filter((r) => r.has_download)) {
      const entitled = ['free', 'bronze', 'silver'].includes(resource.tier_required);
      expect(resource.download_url !== null, resource.id).toBe(entitled);
    }
    const gold = await t.loginAs('gold');
    const asGold = await get<ResourceOut[]>('/api/resources', gold.headers);
    expect(asGold.filter((r) => r.has_download).every((r) => r.download_url !== null)).toBe(true);
  });
});

describe('GET /api/community/posts', () => {
  type PostOut = { created_at: string; content: string | null };
  it('gives a visitor the full text of the first two posts only, newest first', async () => {
    const posts = await get<PostOut[]>('/api/community/posts');
    expect(posts.length).toBeGreaterThanOrEqual(8);
    const dates = posts.map((post) => post.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(posts.slice(0, COMMUNITY_PREVIEW_POSTS).every((post) => typeof post.content === 'string' && post.content.length > 0)).toBe(true);
    expect(posts.slice(COMMUNITY_PREVIEW_POSTS).every((post) => post.content === null)).toBe(true);
  });

  it('gives a signed-in member every post in full', async () => {
    const member = await t.loginAs('free');
    const posts = await get<PostOut[]>('/api/community/posts', member.headers);
    expect(posts.every((post) => typeof post.content === 'string')).toBe(true);
  });
});

describe('GET /api/admin/analytics/content', () => {
  it('counts members and courses publicly', async () => {
    const before = await get<{ total_users: number; total_courses: number }>('/api/admin/analytics/content');
    // Written straight into the database, as another process would: the count follows within a second.
    await t.loginAs('bronze');
    await expect
      .poll(async () => (await get<{ total_users: number }>('/api/admin/analytics/content')).total_users, { timeout: 3000, interval: 100 })
      .toBe(before.total_users + 1);
    const after = await get<{ total_users: number; total_courses: number }>('/api/admin/analytics/content');
    expect(after.total_courses).toBe((await get<unknown[]>('/api/courses')).length);
  });
});
