import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, openTheCoachesWeek, signInAtTier, toast, useBrowser } from './browser.ts';

const browser = useBrowser();
const TAP_TARGET_PX = 44;

const firstFreeTime = (page: Page) => page.locator('label:has(input[name="starts_at"])').first();

describe('1-on-1 coaching on a phone', () => {
  it('lets a Gold member book a 1-on-1, move it and cancel it', async () => {
    await openTheCoachesWeek(browser);
    const { page } = await signInAtTier(browser, 'gold', 'Gia Gold', { mobile: true });
    await gotoHydrated(page, '/coaching');
    await page.getByRole('link', { name: '1-on-1 (Gold)' }).click();
    await page.getByRole('heading', { name: '1-on-1 Coaching' }).waitFor();

    const time = firstFreeTime(page);
    expect((await time.boundingBox())!.height).toBeGreaterThanOrEqual(TAP_TARGET_PX);
    await time.click();
    await page.getByLabel('What do you want to work on? (optional)').fill('Winning more listing appointments');
    const book = page.getByRole('button', { name: 'Book this time' });
    expect((await book.boundingBox())!.height).toBeGreaterThanOrEqual(TAP_TARGET_PX);
    await book.click();
    await toast(page, 'Your 1-on-1 is booked. We mailed you the details.');
    const booking = page.getByTestId('booking');
    await booking.getByText('To work on: Winning more listing appointments').waitFor();
    const bookedAt = await booking.locator('p').first().textContent();

    await booking.getByRole('link', { name: 'Reschedule' }).click();
    await page.getByRole('heading', { name: /^Move your 1-on-1 of / }).waitFor();
    await firstFreeTime(page).click();
    await page.getByRole('button', { name: 'Move to this time' }).click();
    await toast(page, 'Your 1-on-1 has its new time.');
    await expect.poll(() => page.getByTestId('booking').locator('p').first().textContent()).not.toBe(bookedAt);

    page.once('dialog', (dialog) => void dialog.accept());
    const cancel = page.getByTestId('booking').getByRole('button', { name: 'Cancel 1-on-1' });
    expect((await cancel.boundingBox())!.height).toBeGreaterThanOrEqual(TAP_TARGET_PX);
    await cancel.click();
    await toast(page, 'Your 1-on-1 is cancelled. This month’s 1-on-1 is yours to book again.');
    await expect.poll(() => page.getByTestId('booking').count()).toBe(0);
  });

  it('shows a Silver member the upgrade instead of the booking', async () => {
    const { page } = await signInAtTier(browser, 'silver', 'Sid Silver', { mobile: true });
    await gotoHydrated(page, '/coaching/one-on-one');
    await page.getByRole('heading', { name: 'Monthly 1-on-1 coaching is part of the Gold plan' }).waitFor();
    expect(await page.getByRole('button', { name: 'Book this time' }).count()).toBe(0);
  });
});
