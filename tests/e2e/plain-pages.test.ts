import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { gotoHydrated, pageProblems, signInAsNewMember, signInAsStaff, useBrowser } from './browser.ts';

// docs/decisions/027: a visitor reads the home, about and legal pages plainly (the server's HTML and
// one small script); whoever is signed in, or has a toast to see, gets the app as everywhere else.

const browser = useBrowser();

/** The scripts the page fetched: the app's modules under /assets/, or the plain page's enhancer. */
function scriptsFetched(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') fetched.push(new URL(request.url()).pathname);
  });
  return fetched;
}

describe('plain pages for visitors', () => {
  it('sends a visitor the home, pricing, about and legal pages without the app, its moving parts still working', async () => {
    for (const path of ['/pricing', '/about', '/privacy-policy', '/terms-of-service']) {
      const page = await browser.newPage();
      const fetched = scriptsFetched(page);
      await gotoHydrated(page, path);
      expect(fetched, path).toEqual(['/page-enhancer.js']);
    }

    const page = await browser.newPage({ mobile: true });
    const fetched = scriptsFetched(page);
    const response = await gotoHydrated(page, '/');
    const html = await response!.text();
    expect(html).not.toContain('__reactRouterContext');
    expect(html).not.toContain('type="module"');
    expect(fetched).toEqual(['/page-enhancer.js']);

    // The header takes its scrolled look past 20 px.
    const header = page.locator('header');
    expect(await header.getAttribute('class')).not.toContain('shadow-md');
    await page.evaluate(() => window.scrollTo(0, 400));
    await page.waitForFunction(() => document.querySelector('header')?.dataset.scrolled === 'true');
    expect(await header.getAttribute('class')).toContain('shadow-md');
    await page.evaluate(() => window.scrollTo(0, 0));

    // The phone menu opens, closes with Escape and gives the focus back, shows its cross while open.
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    const menu = page.locator('#mobile-menu');
    await menu.getByRole('link', { name: 'Pricing', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('button[aria-controls="mobile-menu"] path').getAttribute('d')).toBe('M6 6l12 12M18 6L6 18');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);

    // A link is an ordinary page load: the pricing page is plain too, its period switch working.
    await toggle.click();
    await menu.getByRole('link', { name: 'Pricing', exact: true }).click();
    await page.waitForURL('**/pricing');
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    const silver = () => page.getByTestId('price-silver').filter({ visible: true }).textContent();
    expect(await silver()).toBe('$79');
    await page.getByRole('button', { name: 'Yearly' }).click();
    expect(await page.getByRole('button', { name: 'Yearly' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'Monthly' }).getAttribute('aria-pressed')).toBe('false');
    expect(await silver()).toBe('$790');
    expect(await page.getByRole('link', { name: 'Start Silver', exact: true }).getAttribute('href')).toBe(
      '/signup?plan=silver&period=yearly',
    );
    // The courses page runs the app.
    await page.getByRole('link', { name: 'Courses', exact: true }).first().click();
    await page.waitForURL('**/courses');
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(fetched.some((script) => script.startsWith('/assets/'))).toBe(true);
    expect(pageProblems(page)).toEqual([]);
  });

  it('gives a signed-in member and staff the app on the same pages', async () => {
    const member = await browser.newPage();
    await signInAsNewMember(member, 'Plain Reader');
    const memberScripts = scriptsFetched(member);
    await gotoHydrated(member, '/');
    expect(memberScripts.some((script) => script.startsWith('/assets/'))).toBe(true);
    expect(memberScripts).not.toContain('/page-enhancer.js');
    // The member's header actions (the app's) are there.
    await member.getByRole('link', { name: 'Dashboard' }).first().waitFor();

    const staff = await browser.newPage();
    await signInAsStaff(staff);
    const staffScripts = scriptsFetched(staff);
    await gotoHydrated(staff, '/about');
    expect(staffScripts).not.toContain('/page-enhancer.js');
    await staff.getByRole('button', { name: 'Edit Site' }).waitFor();

    // Once the session is gone, the same device reads the plain page again.
    await member.context().clearCookies();
    memberScripts.length = 0;
    await gotoHydrated(member, '/');
    expect(memberScripts).toEqual(['/page-enhancer.js']);
    expect(pageProblems(member)).toEqual([]);
    expect(pageProblems(staff)).toEqual([]);
  });
});
