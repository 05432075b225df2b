import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, newEmail, pageProblems, signInAsStaff, useBrowser } from './browser.ts';

const browser = useBrowser();

/** Waits until the service worker controls the page (after its first visit it takes over at once). */
async function controlledBy(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Fetches from inside the page, as a link would; null when nothing answered. */
const fetchInPage = (page: Page, url: string) =>
  page.evaluate(async (address) => {
    try {
      const response = await fetch(address);
      return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
    } catch {
      return null;
    }
  }, url);

describe('the installable app', () => {
  it('has a web app manifest with its icons, linked from every page', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = await (await page.request.get(href!)).json();
    expect(manifest).toMatchObject({ name: 'RealtyPocket', display: 'standalone', start_url: expect.stringMatching(/^\//) });
    const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((icon: { purpose: string }) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const response = await page.request.get(icon.src);
      expect(response.headers()['content-type'], icon.src).toBe('image/png');
    }
    expect((await page.request.get((await page.locator('link[rel="apple-touch-icon"]').getAttribute('href'))!)).ok()).toBe(true);
    // The service worker is never served from a cache: an update reaches every device on its next visit.
    for (const encoding of ['br', 'gzip', 'identity']) {
      const worker = await page.request.get('/sw.js', { headers: { 'accept-encoding': encoding } });
      expect(worker.headers()['cache-control'], encoding).toBe('no-cache');
      expect(worker.headers()['content-type'], encoding).toMatch(/javascript/);
    }
  });

  it('opens the pages already visited without a connection, and says so for the others', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/');
    await controlledBy(page);
    await gotoHydrated(page, '/pricing');
    await gotoHydrated(page, '/courses');

    await page.context().setOffline(true);
    await page.goto('/pricing');
    await page.getByText('Save 16%').waitFor();
    // A visited page still works offline: its script runs from the cache.
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await page.goto('/courses');
    await page.getByRole('heading', { name: 'Expert-Led Courses' }).waitFor();
    await page.goto('/terms-of-service');
    await page.getByRole('heading', { name: 'You are offline' }).waitFor();
    await page.context().setOffline(false);
    expect(pageProblems(page)).toEqual([]);
  });

  it("keeps a Bronze member's saved download for offline use, and removes it once the plan no longer includes it", async () => {
    const page = await browser.newPage({ mobile: true });
    const email = newEmail('bronze');
    const registered = await page.request.post('/api/auth/register', {
      data: { name: 'Offline Reader', email, password: 'member-password-1' },
    });
    expect(registered.status()).toBe(201);
    const staff = await browser.newPage();
    await signInAsStaff(staff);
    const [member] = (await (await staff.request.get(`/api/admin/members?search=${encodeURIComponent(email)}`)).json()) as { id: string }[];
    const setTier = async (tier: string) =>
      expect((await staff.request.post(`/api/admin/members/${member!.id}/tier`, { data: { membership_tier: tier } })).status()).toBe(200);

    // A free member may download free files, but offline downloads come with Bronze and above.
    await gotoHydrated(page, '/resources');
    await controlledBy(page);
    expect(await page.getByRole('button', { name: 'Save for offline' }).count()).toBe(0);

    await setTier('bronze');
    await gotoHydrated(page, '/resources');
    const card = page
      .locator('article', { hasText: 'Bronze membership required' })
      .filter({ has: page.getByRole('link', { name: 'Download' }) })
      .first();
    const url = (await card.getByRole('link', { name: 'Download', exact: true }).getAttribute('href'))!;
    await card.getByRole('button', { name: 'Save for offline' }).click();
    await card.getByText('Saved for offline').waitFor();

    await page.context().setOffline(true);
    const offline = await fetchInPage(page, url);
    expect(offline?.status).toBe(200);
    expect(offline?.bytes).toBeGreaterThan(100);
    await page.context().setOffline(false);

    // Downgraded: the next page the member opens removes what the plan no longer includes.
    await setTier('free');
    await gotoHydrated(page, '/dashboard');
    await expect.poll(() => page.evaluate(async () => (await (await caches.open('offline-downloads')).keys()).length)).toBe(0);
    await page.context().setOffline(true);
    expect(await fetchInPage(page, url)).toBeNull();
    await page.context().setOffline(false);
    expect(pageProblems(page)).toEqual([]);
  });

  it('installs from the footer: the steps where the browser cannot install it itself', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/');
    await page.getByRole('button', { name: 'Download on iOS' }).click();
    const steps = page.getByRole('dialog', { name: 'Install on iPhone or iPad' });
    await steps.getByText("Choose 'Add to Home Screen', then 'Add'.").waitFor();
    await steps.getByRole('button', { name: 'Got it' }).click();
    await steps.waitFor({ state: 'hidden' });
  });
});
