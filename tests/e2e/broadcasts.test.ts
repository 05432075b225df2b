import { describe, expect, inject, it } from 'vitest';
import { gotoHydrated, mailTo, signInAsStaff, useBrowser } from './browser.ts';

const browser = useBrowser();

describe('broadcasts', () => {
  it('lets staff write one with a Gold section, preview it as each tier gets it, and mail themselves a test', async () => {
    const page = await browser.newPage();
    await signInAsStaff(page);
    await gotoHydrated(page, '/admin/dashboard/broadcasts');
    const subject = `Market update ${Date.now()}`;
    await page.getByLabel('Subject').fill(subject);
    await page
      .getByLabel('Text')
      .fill(['## Rates this week', 'Rates held steady.', '[gold]', 'Gold only: the lender panel recording.', '[/gold]'].join('\n'));
    await page.getByLabel('Bronze members').check();
    await page.getByLabel('Gold members').check();
    await page.getByRole('button', { name: 'Save as a draft' }).click();
    await page.getByText('Saved as a draft: preview it, test it, then send it.').waitFor();

    const item = page.getByRole('listitem').filter({ hasText: subject });
    await item.getByText('Preview as each tier gets it').click();
    await item.getByRole('button', { name: 'As a Bronze member' }).click();
    await item.getByText('Rates held steady.').waitFor();
    expect(await item.getByText('Gold only: the lender panel recording.').count()).toBe(0);
    await item.getByRole('button', { name: 'As a Gold member' }).click();
    await item.getByText('Gold only: the lender panel recording.').waitFor();

    await item.getByRole('button', { name: 'Send a test to me' }).click();
    await item.getByText('A test is on its way to your address.').waitFor();
    await expect
      .poll(async () => (await mailTo(inject('adminEmail'))).map((mail) => mail.subject), { timeout: 15_000 })
      .toContain(`[Test] ${subject}`);
  });
});
