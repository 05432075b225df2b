import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coachingSessions } from '../../db/schema.ts';
import type { StaffCourseDetail, Transcript, TranscriptMatches } from '../../common/courses.contract.ts';
import { CAPTIONS } from '../../common/limits.ts';
import { injectAs, type ViewerHeaders } from '../helpers/inject-as.ts';
import { multipartBody } from '../helpers/multipart.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Captions and transcripts (issue: 'Learning that counts'): staff upload WebVTT files (checked on
// upload) and give a lesson's video its captions per language; members whose plan opens the video
// get the <track> and the transcript, and find its words from the course page; a lesson above their
// plan is found as locked, its words never sent.

let t: TestApp;
let staff: { authorization: string };
let staffId: string;
let silver: MemberLogin;
let bronze: MemberLogin;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const staffLogin = await t.loginAsStaff();
  staff = { authorization: `Bearer ${staffLogin.token}` };
  staffId = staffLogin.id;
  silver = await t.loginAs('silver');
  bronze = await t.loginAs('bronze');
});
afterAll(() => t.close());

type Headers = ViewerHeaders;
const request = injectAs(() => t);

const ENGLISH = [
  'WEBVTT',
  '',
  '00:00.500 --> 00:04.000',
  'Welcome to listing presentations.',
  '',
  '00:04.000 --> 00:09.250',
  '<v Dana>Bring three comparable sales to every appointment.</v>',
  '',
  '01:05.000 --> 01:09.000',
  'Then talk about the seller’s timeline.',
].join('\n');
const SPANISH = ['WEBVTT', '', '00:00.500 --> 00:04.000', 'Bienvenidos a las presentaciones.'].join('\n');

function uploadFile(name: string, content: string | Buffer) {
  const body = multipartBody({ folder: 'course-materials' }, { name, content: Buffer.from(content) });
  return t.app.inject({ method: 'POST', url: '/api/admin/upload', headers: { ...staff, ...body.headers }, payload: body.payload });
}

async function uploaded(name: string, content: string): Promise<string> {
  const response = await uploadFile(name, content);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

/** A published Silver course with one video lesson (a link) and its English and Spanish captions. */
async function captionedCourse() {
  const english = await uploaded('presentations-en.vtt', ENGLISH);
  const spanish = await uploaded('presentations-es.vtt', SPANISH);
  const created = await request('POST', '/api/admin/courses', staff, {
    title: `Listing Presentations ${Date.now()} ${Math.random()}`,
    description: 'Win the listing.',
    category: 'sales',
    tier: 'silver',
    instructor: 'Dana Whitfield',
    level: 'beginner',
    duration: '20m',
  });
  expect(created.statusCode, created.body).toBe(201);
  const courseId = (created.json() as StaffCourseDetail).course.id;
  const courseTitle = (created.json() as StaffCourseDetail).course.title;
  const added = await request('POST', `/api/admin/courses/${courseId}/lessons`, staff, {
    title: 'The appointment',
    duration: '10:00',
    video_url: 'https://videos.example.com/appointment.mp4',
    captions: [
      { language: 'en', file_id: english },
      { language: 'es', file_id: spanish },
    ],
  });
  expect(added.statusCode, added.body).toBe(201);
  const lesson = (added.json() as StaffCourseDetail).lessons.at(-1)!;
  expect((await request('POST', `/api/admin/courses/${courseId}/status`, staff, { status: 'published' })).statusCode).toBe(200);
  return { courseId, courseTitle, lessonId: lesson.id, english, spanish, staffLesson: lesson };
}

describe('captions files', () => {
  it('are checked as WebVTT on upload: an SRT file, a broken time or a file too large is refused with the line that is wrong', async () => {
    const srt = await uploadFile('old.vtt', '1\n00:00:01,000 --> 00:00:02,000\nHello');
    expect(srt.statusCode).toBe(400);
    expect(srt.json().detail).toBe('This is not a WebVTT captions file a browser can show. Line 1: a WebVTT file starts with WEBVTT.');
    const backwards = await uploadFile('backwards.vtt', 'WEBVTT\n\n00:05.000 --> 00:01.000\nNo');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().detail).toBe('This is not a WebVTT captions file a browser can show. Line 3: a cue must end after it starts.');
    const big = await uploadFile('big.vtt', `WEBVTT\n\n00:01.000 --> 00:02.000\n${'x'.repeat(CAPTIONS.maxBytes)}`);
    expect(big.statusCode).toBe(400);
    expect(big.json().detail).toBe(`A captions file may be at most ${CAPTIONS.maxBytes / 1024} KB.`);
    expect((await uploadFile('good.vtt', ENGLISH)).statusCode).toBe(201);
  });

  it('give a video lesson its captions per language: not a PDF, each language once, none on a quiz', async () => {
    const { courseId, lessonId, english, staffLesson } = await captionedCourse();
    expect(staffLesson.captions.map((each) => each.language)).toEqual(['en', 'es']);
    const pdf = (await request('GET', '/api/admin/files', staff)).json() as { id: string; content_type: string }[];
    const notCaptions = pdf.find((file) => !file.content_type.startsWith('text/vtt'));
    const lesson = { title: 'The appointment', duration: '10:00', video_url: 'https://videos.example.com/appointment.mp4' };
    if (notCaptions) {
      const refused = await request('PUT', `/api/admin/lessons/${lessonId}`, staff, {
        ...lesson,
        captions: [{ language: 'en', file_id: notCaptions.id }],
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toBe('Captions are a WebVTT (.vtt) file from the file library.');
    }
    const twice = await request('PUT', `/api/admin/lessons/${lessonId}`, staff, {
      ...lesson,
      captions: [
        { language: 'en', file_id: english },
        { language: 'en', file_id: english },
      ],
    });
    expect(twice.statusCode).toBe(400);
    const quiz = await request('POST', `/api/admin/courses/${courseId}/lessons`, staff, {
      kind: 'quiz',
      title: 'Check',
      duration: '2:00',
      captions: [{ language: 'en', file_id: english }],
    });
    expect(quiz.statusCode).toBe(400);
    // The file is in use: the library says where, and keeps it.
    const removed = await request('DELETE', `/api/admin/files/${english}`, staff);
    expect(removed.statusCode).toBe(409);
    expect(removed.json().detail).toContain('the captions of the lesson “The appointment”');
  });
});

describe('captions and transcripts for members', () => {
  it('are sent to a member whose plan opens the video, as a <track> and a transcript, and to no one else', async () => {
    const { courseId, lessonId, english } = await captionedCourse();
    const listed = async (headers: Headers) =>
      (
        (await request('GET', `/api/courses/${courseId}/lessons`, headers)).json() as {
          captions: { language: string; url: string | null }[];
        }[]
      )[0]!.captions;
    expect(await listed(silver.headers)).toEqual([
      { language: 'en', label: 'English', url: `/api/lessons/${lessonId}/captions/en` },
      { language: 'es', label: 'Español', url: `/api/lessons/${lessonId}/captions/es` },
    ]);
    expect((await listed(bronze.headers)).map((each) => each.url)).toEqual([null, null]);
    expect((await listed({})).map((each) => each.url)).toEqual([null, null]);

    const track = await request('GET', `/api/lessons/${lessonId}/captions/en`, silver.headers);
    expect(track.statusCode).toBe(200);
    expect(track.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(track.headers['cache-control']).toBe('private, no-store');
    expect(track.body).toBe(ENGLISH);
    expect((await request('GET', `/api/lessons/${lessonId}/captions/en`, bronze.headers)).statusCode).toBe(403);
    expect((await request('GET', `/api/lessons/${lessonId}/captions/en`)).statusCode).toBe(401);
    expect((await request('GET', `/api/lessons/${lessonId}/captions/fr`, silver.headers)).statusCode).toBe(404);
    // By the file's id too, the captions open where the video opens.
    expect((await request('GET', `/api/files/${english}`, bronze.headers)).statusCode).toBe(403);

    const transcript = await request('GET', `/api/lessons/${lessonId}/transcript?language=en`, silver.headers);
    expect(transcript.statusCode).toBe(200);
    expect((transcript.json() as Transcript).cues).toEqual([
      { start: 0.5, end: 4, text: 'Welcome to listing presentations.' },
      { start: 4, end: 9.25, text: 'Bring three comparable sales to every appointment.' },
      { start: 65, end: 69, text: 'Then talk about the seller’s timeline.' },
    ]);
    const refused = await request('GET', `/api/lessons/${lessonId}/transcript?language=en`, bronze.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('comparable');
  });

  it('are searched from the course page: the moments for a member whose plan opens the lesson, the lesson named as locked for others', async () => {
    const { courseId, courseTitle, lessonId } = await captionedCourse();
    const search = (headers: Headers, words: string) =>
      request('GET', `/api/courses/${courseId}/transcript-search?q=${encodeURIComponent(words)}`, headers);

    const found = await search(silver.headers, 'comparables');
    expect(found.statusCode).toBe(200);
    expect(found.json() as TranscriptMatches).toEqual([
      {
        course_id: courseId,
        course_title: courseTitle,
        lesson_id: lessonId,
        lesson_title: 'The appointment',
        locked: false,
        moments: [{ start: 4, text: 'Bring three comparable sales to every appointment.' }],
      },
    ]);
    for (const headers of [bronze.headers, {}]) {
      const locked = await search(headers, 'comparable sales');
      expect(locked.statusCode).toBe(200);
      expect(locked.json()).toEqual([
        { course_id: courseId, course_title: courseTitle, lesson_id: lessonId, lesson_title: 'The appointment', locked: true, moments: [] },
      ]);
      expect(locked.body).not.toContain('three');
    }
    expect((await search(silver.headers, 'helicopter')).json()).toEqual([]);
    expect((await search(silver.headers, '')).statusCode).toBe(400);
  });

  it('are searched from the catalogue and the Help Center over every published course, never a draft, a locked lesson never quoted', async () => {
    const { courseId, lessonId } = await captionedCourse();
    // A draft course saying the same words is found by no one.
    const draft = await request('POST', '/api/admin/courses', staff, {
      title: `Unpublished ${Date.now()}`,
      description: 'Not yet.',
      category: 'sales',
      tier: 'free',
      instructor: 'Dana Whitfield',
      level: 'beginner',
      duration: '5m',
    });
    const draftId = (draft.json() as StaffCourseDetail).course.id;
    const captions = await uploaded('draft.vtt', ENGLISH);
    expect(
      (
        await request('POST', `/api/admin/courses/${draftId}/lessons`, staff, {
          title: 'Draft lesson',
          duration: '1:00',
          video_url: 'https://videos.example.com/draft.mp4',
          captions: [{ language: 'en', file_id: captions }],
        })
      ).statusCode,
    ).toBe(201);

    const search = (headers: Headers, words: string) => request('GET', `/api/transcript-search?q=${encodeURIComponent(words)}`, headers);
    const found = (await search(silver.headers, 'seller timelines')).json() as TranscriptMatches;
    const ours = found.find((match) => match.lesson_id === lessonId);
    expect(ours).toMatchObject({
      course_id: courseId,
      locked: false,
      moments: [{ start: 65, text: 'Then talk about the seller’s timeline.' }],
    });
    expect(found.some((match) => match.course_id === draftId)).toBe(false);
    for (const headers of [bronze.headers, {}]) {
      const locked = await search(headers, 'seller timelines');
      expect(locked.statusCode).toBe(200);
      expect((locked.json() as TranscriptMatches).find((match) => match.lesson_id === lessonId)).toMatchObject({
        locked: true,
        moments: [],
      });
      expect(locked.body).not.toContain('timeline.');
    }
    // At most a page, whatever the number of lessons that say it.
    expect(found.length).toBeLessThanOrEqual(CAPTIONS.searchResults);
    expect((await search(silver.headers, '')).statusCode).toBe(400);
    expect((await search(silver.headers, 'x'.repeat(500))).statusCode).toBe(400);
  });
});

describe('a coaching recording’s captions', () => {
  it('are given by staff, and sent as a <track> and a transcript to whom the recording opens, to no one else', async () => {
    const english = await uploaded('replay-en.vtt', ENGLISH);
    const created = await request('POST', '/api/admin/coaching/series', staff, {
      title: `Listing clinic ${Date.now()}`,
      description: 'Bring a listing.',
      host_staff_id: staffId,
      date: '2099-01-05',
      time: '18:00',
      time_zone: 'UTC',
      duration_minutes: 60,
      min_tier: 'silver',
      capacity: 50,
      join_url: 'https://meet.example.com/clinic',
    });
    expect(created.statusCode, created.body).toBe(201);
    const sessionId = (created.json() as { id: string }).id;
    await t.db
      .update(coachingSessions)
      .set({ startsAt: new Date(Date.now() - 3 * 60 * 60_000) })
      .where(eq(coachingSessions.id, sessionId));

    const record = (body: object) => request('PUT', `/api/admin/coaching/sessions/${sessionId}/recording`, staff, body);
    // Captions need a recording to caption.
    expect((await record({ notes: 'Slides in the library.', captions: [{ language: 'en', file_id: english }] })).statusCode).toBe(400);
    const saved = await record({
      recording_url: 'https://videos.example.com/clinic-replay',
      notes: 'Slides in the library.',
      captions: [{ language: 'en', file_id: english }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().captions).toEqual([{ language: 'en', file_id: english, name: 'replay-en.vtt' }]);

    const shown = async (headers: Headers) =>
      ((await request('GET', '/api/coaching/recordings', headers)).json() as { id: string; captions: unknown }[]).find(
        (each) => each.id === sessionId,
      )?.captions;
    expect(await shown(silver.headers)).toEqual([
      { language: 'en', label: 'English', url: `/api/coaching/recordings/${sessionId}/captions/en` },
    ]);
    expect(await shown(bronze.headers)).toEqual([{ language: 'en', label: 'English', url: null }]);

    const track = await request('GET', `/api/coaching/recordings/${sessionId}/captions/en`, silver.headers);
    expect(track.statusCode).toBe(200);
    expect(track.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(track.body).toBe(ENGLISH);
    expect((await request('GET', `/api/coaching/recordings/${sessionId}/captions/en`, bronze.headers)).statusCode).toBe(403);
    expect((await request('GET', `/api/coaching/recordings/${sessionId}/captions/es`, silver.headers)).statusCode).toBe(404);
    expect((await request('GET', `/api/files/${english}`, bronze.headers)).statusCode).toBe(403);

    const transcript = await request('GET', `/api/coaching/recordings/${sessionId}/transcript?language=en`, silver.headers);
    expect(transcript.statusCode).toBe(200);
    expect((transcript.json() as Transcript).cues[1]).toEqual({
      start: 4,
      end: 9.25,
      text: 'Bring three comparable sales to every appointment.',
    });
    const refused = await request('GET', `/api/coaching/recordings/${sessionId}/transcript?language=en`, bronze.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('comparable');

    // In use as captions, the file stays in the library.
    const removed = await request('DELETE', `/api/admin/files/${english}`, staff);
    expect(removed.statusCode).toBe(409);
    expect(removed.json().detail).toContain('the captions of the recording of the coaching session');
  });
});
