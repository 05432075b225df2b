import { describe, expect, it } from 'vitest';
import { gotoHydrated, pageProblems, pageWithoutJavaScript, useBrowser } from './browser.ts';

const browser = useBrowser();

describe('the Help Center (/help)', () => {
  it('is where Visit Help Center leads, and its search narrows the answers as the member types', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/contact');
    await page.getByRole('link', { name: 'Visit Help Center' }).click();
    await page.waitForURL('**/help');
    await page.getByRole('heading', { name: 'Help Center', level: 1 }).waitFor();
    for (const topic of [
      'Frequently asked questions',
      'Your account',
      'Billing and plans',
      'Courses and certificates',
      'The app and offline use',
    ]) {
      await page.getByRole('heading', { name: topic, level: 2 }).waitFor();
    }

    const search = page.getByLabel('Search the Help Center');
    await search.fill('home screen');
    await page.getByRole('status').getByText('1 answer found').waitFor();
    await page.getByRole('heading', { name: 'Is there an app?' }).waitFor();
    await page.getByText("tap Share, then 'Add to Home Screen'", { exact: false }).waitFor();
    expect(await page.getByRole('heading', { name: 'Your account', level: 2 }).count()).toBe(0);

    await search.fill('zebra crossing');
    await page.getByText('No answers match "zebra crossing".').waitFor();
    expect(await page.getByRole('link', { name: 'ask us directly' }).getAttribute('href')).toBe('/contact');
    await search.fill('');
    await page.getByRole('heading', { name: 'Your account', level: 2 }).waitFor();
    expect(pageProblems(page)).toEqual([]);
  });

  it('searches without JavaScript too', async () => {
    const page = await pageWithoutJavaScript(browser.browser);
    try {
      await page.goto('/help');
      await page.getByLabel('Search the Help Center').fill('refund');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL('**/help?q=refund');
      await page.getByRole('heading', { name: 'Is there a refund?' }).waitFor();
      await page
        .getByRole('status')
        .getByText(/answers? found/)
        .waitFor();
    } finally {
      await page.context().close();
    }
  });
});
