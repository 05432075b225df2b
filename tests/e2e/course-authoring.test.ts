import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, gotoHydrated, pageProblems, signInAsStaff, signInAtTier, toast, useBrowser } from './browser.ts';

const browser = useBrowser();

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const WEBM = fs.readFileSync(path.resolve('db/seed/files/lessons/lesson-preview-2.webm'));

async function staffPage(): Promise<Page> {
  const page = await browser.newPage();
  await signInAsStaff(page);
  return page;
}

/** Uploads through the File Upload tab, as staff do. */
async function uploadInTab(page: Page, folder: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  await gotoHydrated(page, '/admin/dashboard/files');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByLabel('Folder').selectOption(folder);
  await page.getByLabel('File', { exact: true }).setInputFiles(file);
  await page.getByRole('button', { name: 'Upload File' }).click();
  await page.getByTestId('uploaded-files').getByText(file.name).waitFor();
}

async function lessonTitles(page: Page, courseId: string): Promise<string[]> {
  return ((await (await page.request.get(`/api/courses/${courseId}/lessons`)).json()) as { title: string }[]).map((lesson) => lesson.title);
}

describe('staff run the catalogue', () => {
  it('shows why an upload is refused, and which files the chooser takes', async () => {
    const page = await staffPage();
    await gotoHydrated(page, '/admin/dashboard/files');
    await page.getByText(/PDF, DOCX, .*; at most \d+ MB\./).waitFor();
    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'listing.html', mimeType: 'text/html', buffer: Buffer.from('<h1>hi</h1>') });
    await page.getByRole('button', { name: 'Upload File' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Upload refused:' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('Files of this type are not accepted. Allowed: pdf,');
  });

  it('creates a course with a thumbnail and two lessons, publishes it, reorders it and archives it; its member keeps the certificate', async () => {
    const staff = await staffPage();
    const stamp = Date.now();
    const cover = `cover-${stamp}.png`;
    const video = `walkthrough-${stamp}.webm`;
    await uploadInTab(staff, 'images', { name: cover, mimeType: 'image/png', buffer: PNG });
    await uploadInTab(staff, 'videos', { name: video, mimeType: 'video/webm', buffer: WEBM });

    await gotoHydrated(staff, '/admin/dashboard/courses');
    const title = `Open House Playbook ${stamp}`;
    await staff.getByLabel('Title').fill(title);
    await staff.getByLabel('Description').fill('Plan, host and follow up an open house that brings buyers.');
    await staff.getByLabel('Category').selectOption('marketing');
    await staff.getByLabel('Tier').selectOption('silver');
    await staff.getByLabel('Instructor').fill('Dana Whitfield');
    await staff.getByLabel('Level').selectOption('intermediate');
    await staff.getByLabel('Duration').fill('25m');
    await staff.getByLabel('Thumbnail').selectOption({ label: cover });
    await staff.getByRole('button', { name: 'Create course' }).click();
    await staff.waitForURL(/\/admin\/dashboard\/courses\/open-house-playbook-/);
    const courseId = new URL(staff.url()).pathname.split('/').at(-1)!;
    await staff.getByRole('heading', { name: title }).waitFor();
    await expect.poll(() => staff.getByTestId('course-status').textContent()).toBe('draft');

    const addLesson = async (lesson: { title: string; duration: string; preview?: boolean; video?: string }) => {
      const form = staff.locator('form', { has: staff.getByRole('button', { name: 'Add lesson' }) });
      await form.getByLabel('Lesson title').fill(lesson.title);
      await form.getByLabel('Lesson duration').fill(lesson.duration);
      if (lesson.preview) await form.getByLabel('Free preview (everyone may watch its video)').check();
      if (lesson.video) await form.getByLabel('Uploaded video').selectOption({ label: lesson.video });
      await form.getByRole('button', { name: 'Add lesson' }).click();
      await staff.locator('li[data-lesson-id]', { hasText: lesson.title }).waitFor();
    };
    await addLesson({ title: 'Why open houses still work', duration: '08:00', preview: true });
    await addLesson({ title: 'Running the day', duration: '17:00', video });
    await staff.getByRole('button', { name: 'Publish' }).click();
    await staff.getByText('Course published.').waitFor();

    // In the catalogue, with its uploaded thumbnail.
    const visitor = await browser.newPage();
    await gotoHydrated(visitor, '/courses');
    const card = visitor.locator('article', { hasText: title });
    await card.waitFor();
    const thumbnail = await card.locator('img').getAttribute('src');
    expect(thumbnail).toMatch(/^\/api\/files\/[0-9a-f-]{36}\?w=640$/);
    expect((await fetch(`${baseUrl()}${thumbnail}`)).status).toBe(200);

    // A Silver member enrols and finishes both lessons; the video comes through the checked route.
    const member = await signInAtTier(browser, 'silver', 'Sid Silver');
    await gotoHydrated(member.page, `/courses/${courseId}`);
    await member.page.getByRole('button', { name: 'Start Learning' }).click();
    await toast(member.page, 'Enrolled successfully!');
    const lessons = (await (await member.page.request.get(`/api/courses/${courseId}/lessons`)).json()) as {
      id: string;
      video_url: string | null;
    }[];
    expect(lessons[1]!.video_url).toBe(`/api/lessons/${lessons[1]!.id}/video`);
    expect((await member.page.request.get(lessons[1]!.video_url!)).status()).toBe(200);
    for (const lesson of lessons) expect((await member.page.request.post(`/api/lessons/${lesson.id}/complete`)).status()).toBe(200);
    const progress = await (await member.page.request.get(`/api/courses/${courseId}/progress`)).json();
    expect(progress.certificate_code).toMatch(/^RP-/);

    // Staff move the second lesson up: the course shows the new order.
    await gotoHydrated(staff, `/admin/dashboard/courses/${courseId}`);
    await staff.getByRole('button', { name: 'Move up: Running the day' }).click();
    await staff.getByText('Lesson order saved.').waitFor();
    expect(await lessonTitles(visitor, courseId)).toEqual(['Running the day', 'Why open houses still work']);

    // Archived: out of the catalogue, the certificate stays.
    await staff.getByRole('button', { name: 'Archive' }).click();
    await staff.getByText('Course archived.').waitFor();
    await expect.poll(() => staff.getByTestId('course-status').textContent()).toBe('archived');
    await gotoHydrated(visitor, '/courses');
    expect(await visitor.getByText(title).count()).toBe(0);
    expect((await visitor.goto(`/courses/${courseId}`))!.status()).toBe(404);
    await gotoHydrated(member.page, '/dashboard');
    expect(await member.page.locator('[data-stat="Certificates Earned"]').textContent()).toBe('1');
    await gotoHydrated(member.page, `/certificates/${progress.certificate_code}`);
    await member.page.getByText('✓ Verified certificate').waitFor();
    expect([...pageProblems(staff), ...pageProblems(member.page)]).toEqual([]);
  });

  it('refuses a blank episode or a wrong Spotify link, numbers a new episode, and shows its artwork on the home page', async () => {
    const staff = await staffPage();
    const original = await (await staff.request.get('/api/admin/podcast/list')).json();
    const cover = `episode-art-${Date.now()}.png`;
    await uploadInTab(staff, 'images', { name: cover, mimeType: 'image/png', buffer: PNG });
    try {
      await gotoHydrated(staff, '/admin/dashboard/podcasts');
      const alerts: string[] = [];
      staff.on('dialog', (dialog) => {
        alerts.push(dialog.message());
        void dialog.accept();
      });
      const form = staff.locator('form', { hasText: 'Add New Episode' });
      await form.getByRole('button', { name: 'Add Episode' }).click();
      await form.getByRole('alert').getByText('Every episode needs a title').waitFor();
      await form.getByLabel('Title').fill('Pricing in a Shifting Market');
      await form.getByLabel('Spotify Episode URL').fill('https://example.com/not-spotify');
      await form.getByRole('button', { name: 'Add Episode' }).click();
      await form
        .getByRole('alert')
        .getByText(/Spotify Episode URL must be a Spotify episode link/)
        .waitFor();
      expect(await staff.locator('[data-episode-id]').count()).toBe(original.length);

      await form.getByLabel('Spotify Episode URL').fill('https://open.spotify.com/episode/7Xy2b3C4d5E6f7G8h9I0jK');
      await form.getByRole('button', { name: 'Add Episode' }).click();
      await staff.getByRole('button', { name: 'Save All Changes' }).click();
      await expect.poll(() => alerts).toEqual(['Podcasts updated successfully!']);

      // Saved: numbered in the latest season, dated today; now give it the uploaded artwork.
      const item = staff.locator('[data-episode-id]', { has: staff.locator('input[value="Pricing in a Shifting Market"]') });
      const latestSeason = Math.max(...original.map((episode: { season: number }) => episode.season));
      expect(Number(await item.getByLabel('Season').inputValue())).toBe(latestSeason);
      expect(await item.getByLabel('Published').inputValue()).toBe(new Date().toISOString().slice(0, 10));
      await item.getByLabel('Artwork').selectOption({ label: cover });
      await staff.getByRole('button', { name: 'Save All Changes' }).click();
      await expect.poll(() => alerts.length).toBe(2);

      const visitor = await browser.newPage();
      await gotoHydrated(visitor, '/');
      const card = visitor.getByTestId('latest-episodes').locator('article', { hasText: 'Pricing in a Shifting Market' });
      expect(await card.locator('img').getAttribute('src')).toMatch(/^\/api\/files\/[0-9a-f-]{36}\?w=640$/);
    } finally {
      await staff.request.post('/api/admin/podcast/update', { data: original });
    }
  });

  it('fits every admin page on a 360 px phone: no sideways scrolling, and nothing hidden in a box that scrolls', async () => {
    // A member with a long address, so the members list has something wide to show.
    await signInAtTier(browser, 'bronze', 'Maximiliana Featherstonehaugh-Worthington');
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/admin/login');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await signInAsStaff(page);
    const pages = [
      '/admin/dashboard',
      '/admin/dashboard/files',
      '/admin/dashboard/content',
      '/admin/dashboard/courses',
      '/admin/dashboard/courses/first-90-days',
      '/admin/dashboard/resources',
      '/admin/dashboard/members',
      `/admin/dashboard/members/${((await (await page.request.get('/api/admin/members')).json()) as { id: string }[])[0]!.id}`,
      '/admin/dashboard/staff',
      '/admin/dashboard/community',
      '/admin/dashboard/messages',
      '/admin/dashboard/activity',
    ];
    for (const path of pages) {
      await gotoHydrated(page, path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
      // A box that scrolls sideways shows no scrollbar on a phone: what it hides, nobody finds.
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((element) => !['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName))
          .filter(
            (element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX) && element.scrollWidth > element.clientWidth + 1,
          )
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
      );
      expect(clipped, path).toEqual([]);
    }
    expect(pageProblems(page)).toEqual([]);
  });

  it('adds a resource with a protected file that only an entitled member downloads', async () => {
    const staff = await staffPage();
    const file = `market-snapshot-${Date.now()}.pdf`;
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    );
    await uploadInTab(staff, 'ebooks', { name: file, mimeType: 'application/pdf', buffer: pdf });
    await gotoHydrated(staff, '/admin/dashboard/resources');
    const title = `Market Snapshot ${Date.now()}`;
    const form = staff.locator('form', { has: staff.getByRole('button', { name: 'Add resource' }) });
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Description').fill('This quarter in numbers, for your listing appointments.');
    await form.getByLabel('Type').selectOption('market_report');
    await form.getByLabel('Tier required').selectOption('silver');
    await form.getByLabel('File from the library').selectOption({ label: file });
    await form.getByRole('button', { name: 'Add resource' }).click();
    await staff.getByText(`“${title}” added.`).waitFor();
    await staff.locator('li[data-resource-id]', { hasText: title }).waitFor();

    const silver = await signInAtTier(browser, 'silver', 'Sue Silver');
    await gotoHydrated(silver.page, '/resources');
    const card = silver.page.locator('article', { hasText: title });
    const href = (await card.getByRole('link', { name: 'Download' }).getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/resources\/market-snapshot-\d+\/download$/);
    const downloaded = await silver.page.request.get(href);
    expect(downloaded.status()).toBe(200);
    expect(downloaded.headers()['content-type']).toBe('application/pdf');

    const bronze = await signInAtTier(browser, 'bronze', 'Ben Bronze');
    await gotoHydrated(bronze.page, '/resources');
    const locked = bronze.page.locator('article', { hasText: title });
    await locked.getByText('Silver membership required').waitFor();
    expect(await locked.getByRole('link', { name: 'Download' }).count()).toBe(0);
    expect((await bronze.page.request.get(href)).status()).toBe(403);
    expect((await fetch(`${baseUrl()}${href}`)).status).toBe(401);
    // Browser test files share one server: the resource goes again.
    const id = href.split('/')[3]!;
    expect((await staff.request.delete(`/api/admin/resources/${id}`)).status()).toBe(200);
  });
});
