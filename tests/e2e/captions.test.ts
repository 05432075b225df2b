import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, pageProblems, signInAsStaff, signInAtTier, useBrowser } from './browser.ts';

// Captions and transcripts: staff give a lesson's video its WebVTT captions; a member whose plan
// opens it finds a moment from the course page on a phone, opens the player there, goes to another
// cue through the transcript, and turns the captions off (remembered on the device). A member of a
// lower plan finds the lesson named as locked, its words never shown.

const browser = useBrowser();

// The demo lesson video: 6 seconds long, so every cue is inside it.
const WEBM = fs.readFileSync(path.resolve('db/seed/files/lessons/lesson-preview-2.webm'));
const CAPTIONS = [
  'WEBVTT',
  '',
  '00:00.500 --> 00:02.000',
  'Welcome to listing presentations.',
  '',
  '00:02.000 --> 00:04.000',
  '<v Dana>Bring three comparable sales to every appointment.</v>',
  '',
  '00:04.000 --> 00:05.500',
  'Then talk about the seller’s timeline.',
].join('\n');

async function upload(staff: Page, folder: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<string> {
  const response = await staff.request.post('/api/admin/upload', { multipart: { folder, file } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A published Silver course with one uploaded video lesson and its English captions, made by staff through the API. */
async function captionedCourse(staff: Page): Promise<{ courseId: string; lessonId: string }> {
  const stamp = Date.now();
  const videoId = await upload(staff, 'videos', { name: `appointment-${stamp}.webm`, mimeType: 'video/webm', buffer: WEBM });
  const captionsId = await upload(staff, 'course-materials', {
    name: `appointment-${stamp}.vtt`,
    mimeType: 'text/vtt',
    buffer: Buffer.from(CAPTIONS),
  });
  const created = await staff.request.post('/api/admin/courses', {
    data: {
      // A title no other test searches the catalogue for.
      title: `Captioned Appointments ${stamp}`,
      description: 'Win the listing.',
      category: 'sales',
      tier: 'silver',
      instructor: 'Dana Whitfield',
      level: 'beginner',
      duration: '10m',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const courseId = ((await created.json()) as { course: { id: string } }).course.id;
  const added = await staff.request.post(`/api/admin/courses/${courseId}/lessons`, {
    data: {
      title: 'The appointment',
      duration: '0:06',
      description: 'What to bring, and what to talk about.',
      video_file_id: videoId,
      captions: [{ language: 'en', file_id: captionsId }],
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  const lesson = ((await added.json()) as { lessons: { id: string; captions: { language: string }[] }[] }).lessons.at(-1)!;
  expect(lesson.captions.map((each) => each.language)).toEqual(['en']);
  expect((await staff.request.post(`/api/admin/courses/${courseId}/status`, { data: { status: 'published' } })).status()).toBe(200);
  return { courseId, lessonId: lesson.id };
}

/**
 * Searches the course's transcripts from its page; the answer is the search's status region. The
 * form works before its script does too (a GET the page's loader answers: see the visitor below),
 * but words typed before React takes the input over are not kept by it, so this waits until it has.
 */
async function searchTranscripts(page: Page, words: string): Promise<Locator> {
  await page.waitForFunction(() => {
    const input = document.getElementById('transcript-words');
    return input !== null && Object.keys(input).some((key) => key.startsWith('__reactProps$'));
  });
  const search = page.getByRole('search');
  await search.getByLabel('Words to find in the videos').fill(words);
  await search.getByRole('button', { name: 'Search' }).click();
  const answer = page.locator('section[aria-labelledby="transcript-search"] [role="status"]');
  await answer.waitFor();
  return answer;
}

const videoOf = (player: Locator) => player.locator('video');
const trackMode = (player: Locator) => videoOf(player).evaluate((video: HTMLVideoElement) => video.textTracks[0]?.mode ?? 'none');
const rememberedCaptions = (page: Page) => page.evaluate(() => localStorage.getItem('captions-language'));

describe('captions and transcripts', () => {
  it('let a member on a phone find a moment, open the video there, go to a cue by the transcript, and turn captions off for good', async () => {
    const staff = await browser.newPage();
    await signInAsStaff(staff);
    const { courseId, lessonId } = await captionedCourse(staff);

    // A Silver member on a 360 px phone searches what the videos say, with another form of the word.
    const { page: phone } = await signInAtTier(browser, 'silver', 'Cara Captions', { mobile: true });
    await gotoHydrated(phone, `/courses/${courseId}`);
    await phone.getByRole('heading', { name: 'Search what the videos say' }).waitFor();
    await (await searchTranscripts(phone, 'helicopter')).getByText('No video of this course says that.').waitFor();
    const found = await searchTranscripts(phone, 'comparables');
    await found.getByText('The appointment', { exact: true }).waitFor();
    expect(await found.getByText('🔒 in a higher plan').count()).toBe(0);
    const moment = found.getByRole('button', { name: '0:02: Bring three comparable sales to every appointment.' });
    // Nothing of the page is wider than the phone.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // The moment opens the player there, with the captions on and the transcript under the video.
    await moment.click();
    const player = phone.getByRole('dialog');
    await player.getByRole('heading', { name: 'The appointment' }).waitFor();
    const track = videoOf(player).locator('track[kind="captions"]');
    expect(await track.count()).toBe(1);
    expect(await track.getAttribute('srclang')).toBe('en');
    expect(await track.getAttribute('label')).toBe('English');
    expect(await track.getAttribute('src')).toBe(`/api/lessons/${lessonId}/captions/en`);
    await expect.poll(() => trackMode(player)).toBe('showing');
    // The browser read the captions file: its three cues.
    await expect
      .poll(() => videoOf(player).evaluate((video: HTMLVideoElement) => video.textTracks[0]?.cues?.length ?? 0), { timeout: 15_000 })
      .toBe(3);
    await expect.poll(() => rememberedCaptions(phone)).toBe('en');
    expect(await player.getByText('This video has no captions yet.').count()).toBe(0);

    const video = videoOf(player);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    // Held still, so the place is the one the member chose (the video may have started by itself).
    const openedAt = await video.evaluate((element: HTMLVideoElement) => {
      element.pause();
      return element.currentTime;
    });
    expect(openedAt).toBeGreaterThanOrEqual(1.9);
    expect(openedAt).toBeLessThan(5.5);

    const transcript = player.getByRole('region', { name: 'Transcript' });
    await transcript.waitFor();
    const cues = transcript.locator('ol > li > button');
    expect(await cues.count()).toBe(3);
    expect(await cues.allTextContents()).toEqual([
      '0:00Welcome to listing presentations.',
      '0:02Bring three comparable sales to every appointment.',
      '0:04Then talk about the seller’s timeline.',
    ]);

    // A later cue: the video goes there, and that cue is marked as the one playing.
    await transcript.getByRole('button', { name: /Then talk about the seller’s timeline\./ }).click();
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeCloseTo(4, 1);
    await expect
      .poll(() => transcript.locator('button[aria-current="true"]').allTextContents())
      .toEqual(['0:04Then talk about the seller’s timeline.']);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Captions off in the player: remembered on the phone.
    await video.evaluate((element: HTMLVideoElement) => {
      element.textTracks[0]!.mode = 'disabled';
    });
    await expect.poll(() => rememberedCaptions(phone)).toBe('off');

    // The next visit: the lesson opens with the captions still off, and the transcript still there.
    await gotoHydrated(phone, `/courses/${courseId}`);
    await phone.getByRole('button', { name: 'The appointment' }).click();
    await phone.getByRole('button', { name: 'Watch Lesson' }).click();
    const reopened = phone.getByRole('dialog');
    await reopened.getByRole('region', { name: 'Transcript' }).locator('ol > li').first().waitFor();
    await expect
      .poll(() => videoOf(reopened).evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    expect(await videoOf(reopened).locator('track[kind="captions"][srclang="en"]').count()).toBe(1);
    expect(await trackMode(reopened)).not.toBe('showing');
    expect(await rememberedCaptions(phone)).toBe('off');

    // And on again: remembered as English.
    await videoOf(reopened).evaluate((element: HTMLVideoElement) => {
      element.textTracks[0]!.mode = 'showing';
    });
    await expect.poll(() => rememberedCaptions(phone)).toBe('en');

    // A Bronze member (a lower plan) finds the lesson, named as locked: no moments, none of its words.
    const { page: bronze } = await signInAtTier(browser, 'bronze', 'Bo Bronze', { mobile: true });
    await gotoHydrated(bronze, `/courses/${courseId}`);
    const locked = await searchTranscripts(bronze, 'comparables');
    await locked.getByText('🔒 in a higher plan').waitFor();
    expect(await locked.getByText('The appointment').count()).toBe(1);
    expect(await locked.getByRole('button').count()).toBe(0);
    expect(await locked.textContent()).not.toContain('comparable');
    expect(await bronze.getByRole('button', { name: 'Watch Lesson' }).count()).toBe(0);

    // The catalogue's search finds the moment too, under the courses it found, and its link plays it.
    await gotoHydrated(phone, '/courses');
    await phone.getByLabel('Search courses...').fill('comparables');
    const said = phone.getByRole('region', { name: 'Said in the course videos' });
    await said.getByRole('link', { name: '0:02: Bring three comparable sales to every appointment.' }).click();
    await phone.waitForURL(`**/courses/${courseId}?lesson=${lessonId}&at=2`);
    const fromCatalogue = phone.getByRole('dialog');
    await fromCatalogue.getByRole('heading', { name: 'The appointment' }).waitFor();
    await expect.poll(() => videoOf(fromCatalogue).evaluate((video: HTMLVideoElement) => video.currentTime)).toBeGreaterThanOrEqual(1.9);

    // Sent before the page's script has taken the form over, the search is a GET the page answers.
    const visitor = await browser.newPage({ mobile: true });
    await visitor.goto(`/courses/${courseId}?q=comparables`);
    await visitor.getByRole('status').getByText('🔒 in a higher plan').waitFor();
    expect(await visitor.getByLabel('Words to find in the videos').inputValue()).toBe('comparables');

    expect(pageProblems(phone)).toEqual([]);
    expect(pageProblems(bronze)).toEqual([]);
    expect(pageProblems(staff)).toEqual([]);
  });
});
