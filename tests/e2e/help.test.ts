import { describe, expect, it } from 'vitest';
import { gotoHydrated, pageProblems, pageWithoutJavaScript, signInAsStaff, useBrowser } from './browser.ts';

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

  it('shows what staff write in the Help Center content section', async () => {
    const staff = await browser.newPage();
    await signInAsStaff(staff);
    const original = (await (await staff.request.get('/api/admin/content/help_center')).json()).data as Record<string, string>;
    try {
      staff.on('dialog', (dialog) => void dialog.accept());
      await gotoHydrated(staff, '/admin/dashboard/content?section=help_center');
      await staff.getByText('write one question per block', { exact: false }).waitFor();
      // SPEC 3: a field is labelled by its name with the underscores turned into spaces.
      const appField = staff.getByLabel('app content', { exact: true });
      await appField.fill('Do you have a desktop app?\nThe website works in every desktop browser; install it from the address bar.');
      await staff.getByRole('button', { name: 'Save Changes' }).click();
      await expect
        .poll(async () => (await (await staff.request.get('/api/admin/content/help_center')).json()).data.app_content)
        .toMatch(/^Do you have a desktop app\?/);

      const member = await browser.newPage();
      await gotoHydrated(member, '/help');
      await member.getByLabel('Search the Help Center').fill('desktop');
      await member.getByRole('heading', { name: 'Do you have a desktop app?' }).waitFor();
      await member.getByText('install it from the address bar', { exact: false }).waitFor();
    } finally {
      await staff.request.post('/api/admin/content/help_center', { data: original });
    }
  });
});
