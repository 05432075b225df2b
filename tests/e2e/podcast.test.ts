import { describe, expect, it } from 'vitest';
import { gotoHydrated, pageProblems, pageWithoutJavaScript, signInAsNewMember, useBrowser } from './browser.ts';

const browser = useBrowser();

describe('the podcast', () => {
  it('lists every episode six at a time, older ones after the last shown, and each card opens its episode', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/podcast');
    await page.getByRole('link', { name: 'Browse Every Episode' }).click();
    await page.waitForURL('**/podcast/episodes');
    await page.getByRole('heading', { name: 'All Episodes', level: 1 }).waitFor();
    const cards = page.locator('main article');
    expect(await cards.count()).toBe(6);
    const newest = await cards.locator('h3').allTextContents();
    // The first page leads only to older episodes: there is nothing newer, and no page numbers.
    expect(await page.getByRole('link', { name: '← Newest episodes' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Older episodes →' }).click();
    await page.waitForURL(/\/podcast\/episodes\?before=[A-Za-z0-9_-]+$/);
    await expect.poll(() => cards.count()).toBe(1);
    expect(newest).not.toContain(await cards.locator('h3').first().textContent());
    expect(await page.getByRole('link', { name: 'Older episodes →' }).count()).toBe(0);
    await page.getByRole('link', { name: '← Newest episodes' }).click();
    await page.waitForURL('**/podcast/episodes');
    await expect.poll(() => cards.locator('h3').allTextContents()).toEqual(newest);

    // Anywhere on the card opens the episode (here: its artwork).
    const title = (await cards.first().getByRole('heading').textContent())!;
    await cards.first().click({ position: { x: 20, y: 20 } });
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/podcast\/episodes\/ep-/);
    // A plain link to Spotify beside the player, for when the player cannot load.
    const fallback = page.getByRole('link', { name: 'Player not loading? Listen on Spotify' });
    expect(await fallback.getAttribute('href')).toMatch(/^https:\/\/open\.spotify\.com\/episode\/[A-Za-z0-9]{22}$/);
    expect(await page.locator(`iframe[title="Spotify player: ${title}"]`).count()).toBe(1);

    // Offline, the player is not even tried; the link stays.
    await page.context().setOffline(true);
    await page.getByText('The player needs a connection: you are offline.').waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    expect(await fallback.count()).toBe(1);
    await page.context().setOffline(false);

    const broken = await page.goto('/podcast/episodes?before=not-a-cursor');
    expect(broken?.status()).toBe(400);
    await page.getByText('This page link is not valid (it may be out of date). Start again from the first page.').waitFor();
    await page.getByRole('link', { name: 'Back to the newest episodes' }).waitFor();
    expect((await page.goto('/podcast/episodes/no-such-episode'))?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Episode not found' }).waitFor();
    expect(pageProblems(page)).toEqual([]);
  });

  it('pages the episodes without JavaScript, and a reload shows the same page', async () => {
    const page = await pageWithoutJavaScript(browser.browser);
    await page.goto('/podcast/episodes');
    const cards = page.locator('main article');
    expect(await cards.count()).toBe(6);
    await page.getByRole('link', { name: 'Older episodes →' }).click();
    await page.waitForURL(/\/podcast\/episodes\?before=/);
    expect(await cards.count()).toBe(1);
    const older = await cards.locator('h3').textContent();
    await page.reload();
    expect(await cards.locator('h3').allTextContents()).toEqual([older]);
    await page.getByRole('link', { name: '← Newest episodes' }).click();
    await page.waitForURL('**/podcast/episodes');
    expect(await cards.count()).toBe(6);
    await page.context().close();
  });

  it('opens an episode from the home page cards, the podcast page and the dashboard', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/');
    const latest = page.getByTestId('latest-episodes').locator('article').first();
    const title = (await latest.getByRole('heading').textContent())!;
    await latest.click({ position: { x: 20, y: 20 } });
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();

    await gotoHydrated(page, '/podcast');
    expect(await page.getByRole('link', { name: 'Player not loading? Listen on Spotify' }).count()).toBe(2);
    await page.getByRole('link', { name: title }).click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();

    await signInAsNewMember(page, 'Listener');
    await gotoHydrated(page, '/dashboard');
    await page.getByRole('link', { name: 'Play Episode' }).first().click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    expect(pageProblems(page)).toEqual([]);
  });
});
