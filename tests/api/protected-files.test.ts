import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lessons, uploadedFiles } from '../../db/schema.ts';
import { moveDemoMediaIntoFileStore } from '../../db/seed/seed.ts';
import { LocalDiskStorage } from '../../server/files/storage.ts';
import { multipartBody, PDF_BYTES } from '../helpers/multipart.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// What members pay for is unreachable without entitlement: lesson videos, resource downloads and
// members-only uploads go through routes that check the viewer's tier.
let t: TestApp;
let silver: MemberLogin;
let gold: MemberLogin;
let staffHeaders: Record<string, string>;
let goldVideo: string;
beforeAll(async () => {
  t = await createTestApp();
  silver = await t.loginAs('silver');
  gold = await t.loginAs('gold');
  staffHeaders = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  const goldLessons = (await t.app.inject({ url: '/api/courses/luxury-market/lessons', headers: gold.headers })).json() as {
    id: string;
    video_url: string | null;
  }[];
  goldVideo = goldLessons.find((lesson) => lesson.video_url)!.video_url!;
});
afterAll(() => t.close());

describe('lesson videos', () => {
  it('point entitled members at the checked route, and refuse everyone else', async () => {
    expect(goldVideo).toMatch(/^\/api\/lessons\/luxury-market-l\d+\/video$/);
    expect((await t.app.inject(goldVideo)).statusCode).toBe(401);
    const refused = await t.app.inject({ url: goldVideo, headers: silver.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/Upgrade your plan/);
    const served = await t.app.inject({ url: goldVideo, headers: gold.headers });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('video/webm');
    expect(served.headers['cache-control']).toBe('private, no-store');
    expect(served.headers['accept-ranges']).toBe('bytes');
    expect(served.rawPayload.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
  });

  it('answer byte ranges, so a video can seek', async () => {
    const whole = await t.app.inject({ url: goldVideo, headers: gold.headers });
    const size = whole.rawPayload.length;
    const part = await t.app.inject({ url: goldVideo, headers: { ...gold.headers, range: 'bytes=100-299' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-299/${size}`);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(100, 300))).toBe(true);
    const tail = await t.app.inject({ url: goldVideo, headers: { ...gold.headers, range: 'bytes=-10' } });
    expect(tail.rawPayload.equals(whole.rawPayload.subarray(size - 10))).toBe(true);
    const beyond = await t.app.inject({ url: goldVideo, headers: { ...gold.headers, range: `bytes=${size}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('say plainly when a lesson has no video', async () => {
    const response = await t.app.inject({ url: '/api/lessons/no-such-lesson/video', headers: gold.headers });
    expect(response.statusCode).toBe(404);
  });
});

describe('resource downloads', () => {
  it('serve a Gold report to Gold members only', async () => {
    const url = '/api/resources/market-report-luxury-2026/download';
    const listed = (await t.app.inject({ url: '/api/resources', headers: gold.headers })).json() as {
      id: string;
      download_url: string | null;
    }[];
    expect(listed.find((resource) => resource.id === 'market-report-luxury-2026')?.download_url).toBe(url);
    expect((await t.app.inject(url)).statusCode).toBe(401);
    expect((await t.app.inject({ url, headers: silver.headers })).statusCode).toBe(403);
    const served = await t.app.inject({ url, headers: gold.headers });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['cache-control']).toBe('private, no-store');
    expect(served.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('uploaded files', () => {
  const upload = async (folder: string, visibility?: string) => {
    const body = multipartBody(visibility ? { folder, visibility } : { folder }, { name: 'Team Playbook.pdf', content: PDF_BYTES });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload',
      payload: body.payload,
      headers: { ...staffHeaders, ...body.headers },
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string; url: string; visibility: string };
  };
  const keyOf = async (id: string) => (await t.db.select().from(uploadedFiles).where(eq(uploadedFiles.id, id)))[0]!.storageKey;

  it('are members-only by default outside the images folder, and their public address answers 404', async () => {
    const file = await upload('ebooks');
    expect(file.visibility).toBe('bronze');
    expect(file.url).toBe(`/api/files/${file.id}`);
    expect((await t.app.inject(`/files/${await keyOf(file.id)}`)).statusCode).toBe(404);
    expect((await t.app.inject(file.url)).statusCode).toBe(401);
    const free = await t.loginAs('free');
    expect((await t.app.inject({ url: file.url, headers: free.headers })).statusCode).toBe(403);
    const bronze = await t.loginAs('bronze');
    const served = await t.app.inject({ url: file.url, headers: bronze.headers });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toBe('private, no-store');
    // Staff open every file.
    expect((await t.app.inject({ url: file.url, headers: staffHeaders })).statusCode).toBe(200);
  });

  it('are public by default in the images folder, with long caching', async () => {
    const body = multipartBody(
      { folder: 'images' },
      {
        name: 'hero.png',
        content: Buffer.from(
          '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8c5f40000000049454e44ae426082',
          'hex',
        ),
      },
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload',
      payload: body.payload,
      headers: { ...staffHeaders, ...body.headers },
    });
    const image = response.json();
    expect(image.visibility).toBe('public');
    const served = await t.app.inject(image.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toMatch(/^public/);
  });

  it('change visibility when staff say so, which moves them in or out of the public address', async () => {
    const file = await upload('templates', 'gold');
    const publicAddress = `/files/${await keyOf(file.id)}`;
    expect((await t.app.inject(publicAddress)).statusCode).toBe(404);
    const change = (visibility: string, headers = staffHeaders) =>
      t.app.inject({ method: 'POST', url: `/api/admin/files/${file.id}/visibility`, headers, payload: { visibility } });
    expect((await change('public', gold.headers)).statusCode).toBe(403);
    const opened = await change('public');
    expect(opened.json()).toMatchObject({ id: file.id, visibility: 'public', url: publicAddress });
    expect((await t.app.inject(publicAddress)).statusCode).toBe(200);
    expect((await change('silver')).json().visibility).toBe('silver');
    expect((await t.app.inject(publicAddress)).statusCode).toBe(404);
    expect((await change('platinum')).statusCode).toBe(400);
  });

  it('refuse an unknown visibility at upload', async () => {
    const body = multipartBody({ folder: 'ebooks', visibility: 'everyone' }, { name: 'x.pdf', content: PDF_BYTES });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload',
      payload: body.payload,
      headers: { ...staffHeaders, ...body.headers },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('Choose who may open the file: public, free, bronze, silver or gold.');
  });
});

describe('a demo catalogue loaded by an earlier version', () => {
  it('has its public video links moved into the file store, members-only', async () => {
    await t.db
      .update(lessons)
      .set({ videoFileId: null, videoUrl: '/media/lessons/lesson-preview-2.webm' })
      .where(eq(lessons.id, 'team-building-l1'));
    const moved = await moveDemoMediaIntoFileStore(t.db, new LocalDiskStorage(`${t.dataDir}/uploads`));
    expect(moved).toBeGreaterThanOrEqual(1);
    const [lesson] = await t.db.select().from(lessons).where(eq(lessons.id, 'team-building-l1'));
    expect(lesson!.videoUrl).toBeNull();
    expect(lesson!.videoFileId).not.toBeNull();
    expect((await t.app.inject({ url: '/api/lessons/team-building-l1/video', headers: gold.headers })).statusCode).toBe(200);
    expect(await moveDemoMediaIntoFileStore(t.db, new LocalDiskStorage(`${t.dataDir}/uploads`))).toBe(0);
  });
});
