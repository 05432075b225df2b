import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, pageProblems, playVideo, signInAsNewMember, toast, useBrowser } from './browser.ts';

const browser = useBrowser();

/** The open lesson player. */
const playerOf = (page: Page) => page.getByRole('dialog');

async function pauseAt(player: Locator, seconds: number) {
  const video = player.locator('video');
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 }).toBeGreaterThan(seconds);
  await video.evaluate((element: HTMLVideoElement) => element.pause());
}

describe('the lesson player', () => {
  it('opens from Continue, closes with Escape back to the button, and resumes where the member stopped on another device', async () => {
    const laptop = await browser.newPage();
    const account = await signInAsNewMember(laptop, 'Resume Tester');
    await gotoHydrated(laptop, '/courses/first-90-days');
    await laptop.getByRole('button', { name: 'Start Learning' }).click();
    await toast(laptop, 'Enrolled successfully!');
    const goOn = laptop.getByRole('button', { name: 'Continue', exact: true });
    await goOn.click();

    const player = playerOf(laptop);
    await player.getByRole('heading', { name: 'Setting Up Your Business Like a Business' }).waitFor();
    // The dialog holds the focus, Escape closes it and the focus is back on the button that opened it.
    expect(await player.getByRole('button', { name: 'Close' }).evaluate((button) => button === document.activeElement)).toBe(true);
    await laptop.keyboard.press('Escape');
    await player.waitFor({ state: 'detached' });
    expect(await goOn.evaluate((button) => button === document.activeElement)).toBe(true);

    // Watch about two seconds and pause: the position is stored on the server.
    await goOn.click();
    await playVideo(player, 0);
    await pauseAt(player, 2);
    const stopped = await player.locator('video').evaluate((element: HTMLVideoElement) => element.currentTime);
    await expect
      .poll(async () => (await (await laptop.request.get('/api/courses/first-90-days/progress')).json()).positions['first-90-days-l1'])
      .toBeCloseTo(stopped, 0);
    // A paused video is not a finished lesson.
    await player.getByText('Completes when you have watched the video.').waitFor();

    // The phone: another browser, signed in as the same member, starts the video where the laptop stopped.
    const phone = await browser.newPage({ mobile: true });
    await gotoHydrated(phone, '/login');
    await phone.getByLabel('Email').fill(account.email);
    await phone.getByLabel('Password').fill(account.password);
    await phone.getByRole('button', { name: 'Sign In', exact: true }).click();
    await phone.waitForURL('**/dashboard');
    await gotoHydrated(phone, '/courses/first-90-days');
    expect(await phone.getByRole('button', { name: 'Start Learning' }).count()).toBe(0);
    await phone.getByRole('button', { name: 'Continue', exact: true }).click();
    const phonePlayer = playerOf(phone);
    await phonePlayer.getByText(/Picking up where you left off, at 0:0[12]\./).waitFor();
    const resumed = await phonePlayer.locator('video').evaluate((element: HTMLVideoElement) => element.currentTime);
    expect(resumed).toBeGreaterThanOrEqual(Math.floor(stopped) - 0.5);
    expect(pageProblems(laptop)).toEqual([]);
    expect(pageProblems(phone)).toEqual([]);
  });

  it('completes a lesson when its video ends, offers the next lesson, and says Review course once the course is done', async () => {
    const page = await browser.newPage();
    await signInAsNewMember(page, 'Finisher');
    await gotoHydrated(page, '/courses/sphere-of-influence');
    await page.getByRole('button', { name: 'Start Learning' }).click();
    await toast(page, 'Enrolled successfully!');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const player = playerOf(page);

    // Lesson 1 has a video: it completes by watching it to the end, not by a button.
    expect(await player.getByRole('button', { name: 'Mark as complete' }).count()).toBe(0);
    await playVideo(player, 'near-end');
    await player.getByText('✓ Completed').waitFor();
    await toast(page, 'Lesson completed');
    await page.getByTestId('course-progress').getByText('20%').waitFor();

    // Lesson 2 has no video: its description and 'Mark as complete'.
    await player.getByRole('button', { name: 'Next lesson: The 33-Touch Annual Plan' }).click();
    await player.getByRole('heading', { name: 'The 33-Touch Annual Plan' }).waitFor();
    await player.getByText('A calendar of calls, notes, market updates').waitFor();
    await player.getByRole('button', { name: 'Mark as complete' }).click();
    await page.getByTestId('course-progress').getByText('40%').waitFor();

    await player.getByRole('button', { name: 'Next lesson: Pop-By Gifts That Get Remembered' }).click();
    await playVideo(player, 'near-end');
    await page.getByTestId('course-progress').getByText('60%').waitFor();
    for (const [title, percent] of [
      ['Asking for Referrals Without Awkwardness', '80%'],
      ['Client Appreciation Events', '100%'],
    ] as const) {
      await player.getByRole('button', { name: `Next lesson: ${title}` }).click();
      await player.getByRole('heading', { name: title }).waitFor();
      await player.getByRole('button', { name: 'Mark as complete' }).click();
      await page.getByTestId('course-progress').getByText(percent).waitFor();
    }
    await toast(page, 'Course complete! Your certificate is ready on your dashboard.');
    expect(await player.getByRole('button', { name: /Next lesson/ }).count()).toBe(0);
    await player.getByRole('button', { name: 'Close' }).click();

    // Finished: the main button reviews the course from its first lesson, and nothing enrols again.
    await gotoHydrated(page, '/courses/sphere-of-influence');
    expect(await page.getByRole('button', { name: 'Start Learning' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Continue', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Review course' }).click();
    await playerOf(page).getByRole('heading', { name: 'Building Your Database From Scratch' }).waitFor();
    expect(await page.locator('[data-sonner-toast]', { hasText: 'Enrolled successfully!' }).count()).toBe(0);
    expect(pageProblems(page)).toEqual([]);
  });
});
