import { describe, expect, it } from 'vitest';
import { gotoHydrated, pageProblems, signInAsNewMember, useBrowser } from './browser.ts';

const browser = useBrowser();

describe('the podcast', () => {
  it('lists every episode on pages of six, and each card opens its episode', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/podcast');
    await page.getByRole('link', { name: 'Browse Every Episode' }).click();
    await page.waitForURL('**/podcast/episodes');
    await page.getByRole('heading', { name: 'All Episodes', level: 1 }).waitFor();
    const cards = page.locator('main article');
    expect(await cards.count()).toBe(6);
    await page.getByText('Page 1 of 2').waitFor();
    await page.getByRole('link', { name: 'Older episodes →' }).click();
    await page.waitForURL('**/podcast/episodes?page=2');
    await page.getByText('Page 2 of 2').waitFor();
    expect(await cards.count()).toBe(1);
    await page.getByRole('link', { name: '← Newer episodes' }).click();
    await page.getByText('Page 1 of 2').waitFor();

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

    const missing = await page.goto('/podcast/episodes?page=9');
    expect(missing?.status()).toBe(404);
    await page.getByText('There is no such page of episodes.').waitFor();
    expect((await page.goto('/podcast/episodes/no-such-episode'))?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Episode not found' }).waitFor();
    expect(pageProblems(page)).toEqual([]);
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
