import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMUNITY_PREVIEW_POSTS, EPISODES_PER_PAGE, PAGE_SIZE } from '../../common/limits.ts';
import type { AdminEpisodeList } from '../../common/podcast.contract.ts';
import { INVALID_CURSOR } from '../../server/lists/keyset.ts';
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
      'captions',
      'description',
      'duration',
      'free_preview',
      'has_video',
      'id',
      'kind',
      'opens',
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

type EpisodePageOut = { episodes: { id: string }[]; next_cursor: string | null; total: number };

describe('GET /api/podcast/episodes/pages', () => {
  it('pages the episodes newest first, six at a time after the last shown, with an SQL count', async () => {
    const all = await get<{ id: string }[]>('/api/podcast/episodes');
    expect(all.length).toBeGreaterThan(EPISODES_PER_PAGE);
    const first = await get<EpisodePageOut>('/api/podcast/episodes/pages');
    expect(first).toMatchObject({ total: all.length, next_cursor: expect.any(String) });
    expect(first.episodes.map((episode) => episode.id)).toEqual(all.slice(0, EPISODES_PER_PAGE).map((episode) => episode.id));
    const second = await get<EpisodePageOut>(`/api/podcast/episodes/pages?before=${first.next_cursor}`);
    expect(second.episodes.map((episode) => episode.id)).toEqual(
      all.slice(EPISODES_PER_PAGE, 2 * EPISODES_PER_PAGE).map((episode) => episode.id),
    );
    expect(second.total).toBe(all.length);
  });
});

// Enough episodes for several pages of every list of them, some published on the same day (their
// order is then their id), added through the spec's staff API and put back as they were after.
describe('the podcast, a page at a time', () => {
  let staffHeaders: Record<string, string>;
  let original: AdminEpisodeList;
  const ADDED = PAGE_SIZE.staffList + 10;
  const adminList = async () => get<(AdminEpisodeList[number] & { id: string })[]>('/api/admin/podcast/list', staffHeaders);
  const replaceAll = async (episodes: object[]) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/admin/podcast/update', headers: staffHeaders, payload: episodes });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    staffHeaders = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    original = await adminList();
    const added = Array.from({ length: ADDED }, (_, index) => ({
      id: `paged-${String(index).padStart(3, '0')}`,
      title: `Paged ${index}`,
      published_at: `2019-0${1 + (index % 9)}-1${index % 3}`,
    }));
    await replaceAll([...original, ...added]);
  });
  afterAll(() => replaceAll(original));

  type Answer = Awaited<ReturnType<typeof t.app.inject>>;
  /** Follows a list's next pages from `url` to its end (at most 100): the ids of each page, in order. */
  async function everyPage(url: string, read: (answer: Answer) => { ids: string[]; next: string | null }): Promise<string[][]> {
    const pages: string[][] = [];
    for (let address: string | null = url; address && pages.length < 100;) {
      const answer = await t.app.inject(address);
      expect(answer.statusCode, address).toBe(200);
      const { ids, next } = read(answer);
      pages.push(ids);
      address = next;
    }
    return pages;
  }

  it('GET /api/podcast/episodes answers an array, the newest page, and names the next page in a Link header', async () => {
    const first = await t.app.inject('/api/podcast/episodes');
    expect(Array.isArray(first.json())).toBe(true);
    expect(first.json()).toHaveLength(PAGE_SIZE.episodes);
    expect(first.headers.link).toMatch(/^<\/api\/podcast\/episodes\?before=[A-Za-z0-9_-]+>; rel="next"$/);

    const pages = await everyPage('/api/podcast/episodes', (answer) => ({
      ids: (answer.json() as { id: string }[]).map((episode) => episode.id),
      next: /^<([^>]+)>; rel="next"$/.exec(String(answer.headers.link ?? ''))?.[1] ?? null,
    }));
    const every = (await adminList()).map((episode) => episode.id);
    expect(pages.length).toBe(Math.ceil(every.length / PAGE_SIZE.episodes));
    expect(pages.every((page) => page.length <= PAGE_SIZE.episodes)).toBe(true);
    // Newest first, as staff see the whole list: none twice, none skipped; the last page names no next one.
    expect(pages.flat()).toEqual(every);
    // A visitor asking again gets the same page and the same Link (kept answers carry it too).
    const again = await t.app.inject('/api/podcast/episodes');
    expect(again.headers.link).toBe(first.headers.link);
    expect(again.json()).toEqual(first.json());
  });

  it('GET /api/podcast/episodes/pages goes on after the last episode shown, to the end, with the total', async () => {
    const every = (await adminList()).map((episode) => episode.id);
    const totals = new Set<number>();
    const pages = await everyPage('/api/podcast/episodes/pages', (answer) => {
      const body = answer.json() as EpisodePageOut;
      totals.add(body.total);
      return {
        ids: body.episodes.map((episode) => episode.id),
        next: body.next_cursor && `/api/podcast/episodes/pages?before=${body.next_cursor}`,
      };
    });
    expect(totals).toEqual(new Set([every.length]));
    expect(pages.length).toBe(Math.ceil(every.length / EPISODES_PER_PAGE));
    expect(pages.slice(0, -1).every((page) => page.length === EPISODES_PER_PAGE)).toBe(true);
    expect(pages.flat()).toEqual(every);
    expect(new Set(pages.flat()).size).toBe(every.length);
  });

  it('refuses a broken page link with a 400 that says to start again from the first page', async () => {
    const first = await get<EpisodePageOut>('/api/podcast/episodes/pages');
    const [published, id] = JSON.parse(Buffer.from(first.next_cursor!, 'base64url').toString()) as [string, string];
    expect(published).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    const cursor = (values: unknown) => Buffer.from(JSON.stringify(values)).toString('base64url');
    for (const broken of [
      'abc',
      'not-a-cursor',
      cursor(['x']),
      cursor([published]),
      cursor(['2024-13-45 25:61:61+00', id]),
      cursor([published, 7]),
    ]) {
      for (const list of ['/api/podcast/episodes', '/api/podcast/episodes/pages']) {
        const response = await t.app.inject(`${list}?before=${broken}`);
        expect(response.statusCode, `${list} ${broken}`).toBe(400);
        expect(response.json().detail).toBe(INVALID_CURSOR);
      }
    }
    // Not a page link at all: refused before it is read.
    expect((await t.app.inject('/api/podcast/episodes/pages?before=%21%21')).statusCode).toBe(400);
  });

  it("saves the staff tab's page without touching any other page's episodes", async () => {
    const editor = await t.asStaff('editor');
    const authoring = t.app.services.podcastAuthoring;
    const first = await authoring.adminPage(editor, {});
    expect(first.items).toHaveLength(PAGE_SIZE.staffList);
    const second = await authoring.adminPage(editor, { before: first.next_cursor! });
    const [removed, edited, ...rest] = second.items;
    const before = await adminList();

    await authoring.savePage(
      editor,
      second.items.map((episode) => episode.id),
      [
        { ...edited!, title: 'Edited on page two' },
        ...rest,
        { id: 'paged-new', title: 'Added on page two', spotify_url: '', description: '', duration: '45:00' },
      ],
    );
    const after = await adminList();
    const byId = new Map(after.map((episode) => [episode.id, episode]));
    // Every episode of the first page is still there, as it was.
    for (const episode of first.items) expect(byId.get(episode.id), episode.id).toEqual(episode);
    expect(byId.has(removed!.id)).toBe(false);
    expect(byId.get(edited!.id)).toMatchObject({ title: 'Edited on page two' });
    expect(byId.get('paged-new')).toMatchObject({ title: 'Added on page two' });
    expect(after).toHaveLength(before.length);

    // A page saved empty (staff deleted its every episode) loses its episodes, and the other pages none.
    const page = await authoring.adminPage(editor, { before: (await authoring.adminPage(editor, {})).next_cursor! });
    const emptied = new Set(page.items.map((episode) => episode.id));
    await authoring.savePage(editor, [...emptied], []);
    const left = await adminList();
    expect(left.map((episode) => episode.id)).toEqual(after.map((episode) => episode.id).filter((id) => !emptied.has(id)));
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
