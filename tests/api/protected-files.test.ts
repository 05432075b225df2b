import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffCourseDetail } from '../../common/courses.contract.ts';
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
let staffId: string;
let staffHeaders: Record<string, string>;
let goldVideo: string;
beforeAll(async () => {
  t = await createTestApp();
  silver = await t.loginAs('silver');
  gold = await t.loginAs('gold');
  const staff = await t.loginAsStaff();
  staffId = staff.id;
  staffHeaders = { authorization: `Bearer ${staff.token}` };
  const goldLessons = (await t.app.inject({ url: '/api/courses/luxury-market/lessons', headers: gold.headers })).json() as {
    id: string;
    video_url: string | null;
  }[];
  goldVideo = goldLessons.find((lesson) => lesson.video_url)!.video_url!;
});
afterAll(() => t.close());

const PLAYBOOK = { name: 'Team Playbook.pdf', content: PDF_BYTES };
const REPLAY = {
  name: 'replay.webm',
  content: fs.readFileSync(path.join(import.meta.dirname, '../../db/seed/files/lessons/lesson-preview-1.webm')),
};

/** Staff upload a file to the library (visibility: the folder's default unless given). */
async function upload(folder: string, visibility?: string, file = PLAYBOOK) {
  const body = multipartBody(visibility ? { folder, visibility } : { folder }, file);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/upload',
    payload: body.payload,
    headers: { ...staffHeaders, ...body.headers },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; url: string; visibility: string };
}
const keyOf = async (id: string) => (await t.db.select().from(uploadedFiles).where(eq(uploadedFiles.id, id)))[0]!.storageKey;

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

// A file's id reaches no further than the places that use it: a lesson's video, a resource's
// download, a session's recording each keep it to those they let in, whatever the file's own
// visibility, and the stricter of the two wins on their own routes too.
describe('files that paid content uses', () => {
  let free: MemberLogin;
  let bronze: MemberLogin;
  beforeAll(async () => {
    free = await t.loginAs('free');
    bronze = await t.loginAs('bronze');
  });

  const staffPost = (url: string, payload: object, method: 'POST' | 'PUT' = 'POST') =>
    t.app.inject({ method, url, headers: staffHeaders, payload });

  /** A lesson with this uploaded video, added to a seeded course; answers its id. */
  async function lessonWithVideo(courseId: string, videoFileId: string): Promise<string> {
    const title = `Walk-through ${videoFileId.slice(0, 8)}`;
    const added = await staffPost(`/api/admin/courses/${courseId}/lessons`, {
      title,
      duration: '08:00',
      description: 'A showing, room by room.',
      video_file_id: videoFileId,
    });
    expect(added.statusCode, added.body).toBe(201);
    return (added.json() as StaffCourseDetail).lessons.find((lesson) => lesson.title === title)!.id;
  }

  /** A resource of this tier whose download is this uploaded file; answers its id. */
  async function resourceWithFile(tierRequired: string, fileId: string): Promise<string> {
    const created = await staffPost('/api/admin/resources', {
      title: `Pricing sheets ${fileId.slice(0, 8)}`,
      description: 'Price bands for the quarter.',
      resource_type: 'ebook',
      tier_required: tierRequired,
      file_id: fileId,
    });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { id: string }).id;
  }

  /** Checks the file by id and at its public address: a visitor asked to sign in, `refused` to upgrade, `served` (and staff) given it privately. */
  async function expectFileOnlyFor(fileId: string, content: Buffer, who: { refused: MemberLogin[]; served: MemberLogin[] }) {
    const url = `/api/files/${fileId}`;
    const visitor = await t.app.inject(url);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().detail).toBe('Please sign in to open this file.');
    for (const member of who.refused) {
      const refused = await t.app.inject({ url, headers: member.headers });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toBe('Your membership does not include this file. Upgrade your plan to open it.');
    }
    for (const headers of [...who.served.map((member) => member.headers), staffHeaders]) {
      const served = await t.app.inject({ url, headers });
      expect(served.statusCode).toBe(200);
      expect(served.headers['cache-control']).toBe('private, no-store');
      expect(served.rawPayload.equals(content)).toBe(true);
    }
    expect((await t.app.inject(`/files/${await keyOf(fileId)}`)).statusCode).toBe(404);
  }

  it('keeps a Gold lesson’s video, though public itself, to Gold members and staff by its id, and off its public address', async () => {
    const video = await upload('videos', 'public', REPLAY);
    await lessonWithVideo('luxury-market', video.id);
    await expectFileOnlyFor(video.id, REPLAY.content, { refused: [free, bronze, silver], served: [gold] });
  });

  it('keeps a Gold lesson’s attachment, though open to every member itself, to Gold members and staff by its id', async () => {
    const handout = await upload('ebooks', 'free');
    const added = await staffPost(`/api/admin/courses/luxury-market/lessons`, {
      title: `Handout ${handout.id.slice(0, 8)}`,
      duration: '05:00',
      description: 'The checklist, to print.',
      attachment_file_ids: [handout.id],
    });
    expect(added.statusCode, added.body).toBe(201);
    await expectFileOnlyFor(handout.id, PLAYBOOK.content, { refused: [free, bronze, silver], served: [gold] });
  });

  it('keeps a Silver resource’s download, though open to every member itself, to Silver members and up by its id', async () => {
    const download = await upload('ebooks', 'free');
    await resourceWithFile('silver', download.id);
    await expectFileOnlyFor(download.id, PLAYBOOK.content, { refused: [free, bronze], served: [silver, gold] });
  });

  it('keeps a Gold session’s recording, though public itself, to Gold members and staff by its id, and off its public address', async () => {
    const recording = await upload('videos', 'public', REPLAY);
    const start = new Date(Date.now() + 24 * 60 * 60_000).toISOString();
    const scheduled = await staffPost('/api/admin/coaching/series', {
      title: 'Luxury pricing clinic',
      host_staff_id: staffId,
      date: start.slice(0, 10),
      time: start.slice(11, 16),
      time_zone: 'UTC',
      duration_minutes: 60,
      min_tier: 'gold',
      capacity: 20,
      join_url: 'https://meet.example.com/luxury-clinic',
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    const sessionId = (scheduled.json() as { id: string }).id;
    const recorded = await staffPost(`/api/admin/coaching/sessions/${sessionId}/recording`, { recording_file_id: recording.id }, 'PUT');
    expect(recorded.statusCode, recorded.body).toBe(200);
    await expectFileOnlyFor(recording.id, REPLAY.content, { refused: [free, bronze, silver], served: [gold] });
  });

  it('keeps a file’s own stricter visibility on the lesson-video and download routes too', async () => {
    const goldOnly = await upload('videos', 'gold', REPLAY);
    const lessonVideo = `/api/lessons/${await lessonWithVideo('negotiation-strategies', goldOnly.id)}/video`;
    const goldReport = await upload('ebooks', 'gold');
    const download = `/api/resources/${await resourceWithFile('silver', goldReport.id)}/download`;
    for (const [url, what] of [
      [lessonVideo, 'lesson video'],
      [download, 'download'],
    ] as const) {
      const refused = await t.app.inject({ url, headers: silver.headers });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().detail).toBe(`Your membership does not include this ${what}. Upgrade your plan to open it.`);
      for (const headers of [gold.headers, staffHeaders]) expect((await t.app.inject({ url, headers })).statusCode, url).toBe(200);
    }
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
