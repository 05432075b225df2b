import { describe, expect, it } from 'vitest';
import { gotoHydrated, signInAtTier, toast, useBrowser } from './browser.ts';

const browser = useBrowser();
const TAP_TARGET_PX = 44;

describe('goals on a phone', () => {
  it('lets a member set a goal, log progress from the dashboard, and see it move', async () => {
    const { page } = await signInAtTier(browser, 'free', 'Gus Goals', { mobile: true });
    await gotoHydrated(page, '/dashboard');
    const setGoal = page.getByRole('link', { name: 'Set a goal' }).last();
    expect((await setGoal.boundingBox())!.height).toBeGreaterThanOrEqual(TAP_TARGET_PX);
    await setGoal.click();
    await page.getByRole('heading', { name: 'My Goals' }).waitFor();

    await page.getByLabel('Goal', { exact: true }).fill('Calls to past clients');
    await page.getByLabel('Target').fill('20');
    await page.getByLabel('Unit').fill('calls');
    await page.getByRole('button', { name: 'Set goal', exact: true }).click();
    await toast(page, 'Goal set. Log your progress here or on your dashboard.');

    await gotoHydrated(page, '/dashboard');
    const goal = page.getByTestId('goal').filter({ hasText: 'Calls to past clients' });
    await goal.getByText('0 of 20 calls this week').waitFor();
    const plusOne = goal.getByRole('button', { name: 'Log 1 calls for Calls to past clients' });
    expect((await plusOne.boundingBox())!.height).toBeGreaterThanOrEqual(TAP_TARGET_PX);
    await plusOne.click();
    await toast(page, 'Logged 1 calls: 1 of 20 this week.');
    await goal.getByLabel('How many calls for Calls to past clients').fill('4');
    await goal.getByRole('button', { name: 'Log', exact: true }).click();
    await goal.getByText('5 of 20 calls this week').waitFor();
    await goal.getByText('1-day streak').waitFor();
    expect(await goal.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
  });
});
