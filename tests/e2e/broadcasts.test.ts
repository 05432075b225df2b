import { describe, expect, inject, it } from 'vitest';
import { gotoHydrated, mailTo, signInAsStaff, signInAtTier, useBrowser } from './browser.ts';

const browser = useBrowser();

describe('broadcasts', () => {
  it('lets staff write one with a Gold section, preview it, mail themselves a test and send it: a Gold and a Bronze member get it each as their tier reaches', async () => {
    const gold = await signInAtTier(browser, 'gold', 'Gold Reader');
    const bronze = await signInAtTier(browser, 'bronze', 'Bronze Reader');
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

    // Sent by the minute job of the server: within a minute or so.
    await item.getByRole('button', { name: 'Send', exact: true }).click();
    await item.getByText('Sending: it goes out within a minute.').waitFor();
    const copyFor = async (email: string) => (await mailTo(email)).find((mail) => mail.subject === subject);
    await expect.poll(async () => Boolean((await copyFor(gold.email)) && (await copyFor(bronze.email))), { timeout: 90_000 }).toBe(true);
    const [toGold, toBronze] = [(await copyFor(gold.email))!, (await copyFor(bronze.email))!];
    for (const copy of [toGold, toBronze]) expect(copy.text).toContain('Rates held steady.');
    expect(toGold.text).toContain('Gold only: the lender panel recording.');
    expect(toGold.html || '').toContain('Gold only: the lender panel recording.');
    expect(toBronze.text).not.toContain('lender panel');
    expect(toBronze.html || '').not.toContain('lender panel');
    await gold.page.close();
    await bronze.page.close();
  }, 150_000);
});
