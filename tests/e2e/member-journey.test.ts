import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, pageProblems, playVideo, toast, useBrowser } from './browser.ts';

const browser = useBrowser();
const newEmail = () => `agent-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;

async function signUp(page: Page, name: string, email: string, password = 'listing123') {
  await gotoHydrated(page, '/signup');
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Free Account' }).click();
}

describe('login and signup pages', () => {
  it('show the spec texts, links and the Google info toast', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/login');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await page.getByText('Forgot password?').waitFor();
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await toast(page, 'Google OAuth coming soon');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL('**/signup');
    await page.getByRole('heading', { name: 'Start Your Journey' }).waitFor();
    await page.getByText('Must be at least 6 characters').waitFor();
    await page.getByRole('button', { name: 'Sign up with Google' }).waitFor();
    expect(await page.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
  });

  it('refuses a short password and a missing terms checkbox in the browser, and shows server errors as toasts', async () => {
    const page = await browser.newPage();
    const email = newEmail();
    await gotoHydrated(page, '/signup');
    await page.getByLabel('Full Name').fill('Short Password');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('12345');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Free Account' }).click();
    expect(await page.getByLabel('Password').evaluate((input: HTMLInputElement) => input.validity.tooShort)).toBe(true);
    await page.getByLabel('Password').fill('123456');
    await page.getByRole('checkbox').uncheck();
    await page.getByRole('button', { name: 'Create Free Account' }).click();
    expect(await page.getByRole('checkbox').evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    expect(page.url()).toMatch(/\/signup$/);

    const login = await browser.newPage();
    await gotoHydrated(login, '/login');
    await login.getByLabel('Email').fill(email);
    await login.getByLabel('Password').fill('wrong-password');
    await login.getByRole('button', { name: 'Sign In', exact: true }).click();
    await toast(login, 'Invalid email or password');
    expect(login.url()).toMatch(/\/login$/);
  });

  it('sends a visitor from /dashboard to /login', async () => {
    const page = await browser.newPage();
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
  });
});

describe('a new member', () => {
  it('signs up, enrols in a free course, completes it, earns the certificate, logs out and back in', async () => {
    const page = await browser.newPage({ mobile: false });
    const email = newEmail();
    await signUp(page, 'Jordan Lee', email);
    await toast(page, 'Account created successfully!');
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome, Jordan Lee!' }).waitFor();
    await page.getByText('Here is where to start', { exact: false }).waitFor();
    await page.locator('header').getByText('Welcome, Jordan Lee').waitFor();
    expect(await page.locator('[data-stat="Courses Enrolled"]').textContent()).toBe('0');
    expect(await page.locator('[data-stat="Certificates Earned"]').textContent()).toBe('0');
    await page.getByText("You haven't enrolled in any courses yet").waitFor();
    await page.getByText('Upgrade Available').waitFor();
    expect(await page.getByRole('link', { name: 'Upgrade Plan' }).getAttribute('href')).toBe('/pricing');

    // A duplicate sign-up with the same email is refused with the server's message.
    const other = await browser.newPage();
    await signUp(other, 'Someone Else', email.toUpperCase());
    await toast(other, 'An account with this email already exists. Please log in instead.');

    await gotoHydrated(page, '/courses/first-90-days');
    await page.getByRole('button', { name: 'Start Learning' }).click();
    await toast(page, 'Enrolled successfully!');
    await page.getByTestId('course-progress').getByText('0%').waitFor();

    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const player = page.getByRole('dialog');
    // The video comes through the checked route, and the browser loads it (with its session cookie).
    expect(await player.locator('video').getAttribute('src')).toBe('/api/lessons/first-90-days-l1/video');
    // Every lesson of this course has a video: each completes when it has been watched to the end.
    for (let lesson = 1; lesson <= 6; lesson++) {
      if (lesson > 1) await player.getByRole('button', { name: /^Next lesson: / }).click();
      await playVideo(player, 'near-end');
      await page
        .getByTestId('course-progress')
        .getByText(`${Math.round((lesson / 6) * 100)}%`)
        .waitFor();
    }
    await toast(page, 'Course complete! Your certificate is ready on your dashboard.');
    await player.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: 'View your certificate' }).click();
    await page.getByText('✓ Verified certificate').waitFor();
    await page.getByRole('heading', { name: 'Jordan Lee' }).waitFor();

    await gotoHydrated(page, '/dashboard');
    // Now there is somewhere to come back to.
    await page.getByRole('heading', { name: 'Welcome back, Jordan Lee!' }).waitFor();
    await page.getByText('Here is where you left off.').waitFor();
    expect(await page.locator('[data-stat="Courses Enrolled"]').textContent()).toBe('1');
    expect(await page.locator('[data-stat="Certificates Earned"]').textContent()).toBe('1');
    await page.getByText('100% complete').waitFor();
    const pdf = await page.request.get((await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href'))!);
    expect(pdf.headers()['content-type']).toBe('application/pdf');

    await page.locator('header').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.locator('header').getByRole('link', { name: 'Login' }).waitFor();
    await page.goto('/dashboard');
    await page.waitForURL('**/login');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('listing123');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await toast(page, 'Welcome back!');
    await page.waitForURL('**/dashboard');
    expect(await page.locator('[data-stat="Certificates Earned"]').textContent()).toBe('1');
    expect(pageProblems(page)).toEqual([]);
  });

  it('sees Upgrade to Access on a course above a free membership, and reads every community post', async () => {
    const page = await browser.newPage();
    await signUp(page, 'Free Member', newEmail());
    await page.waitForURL('**/dashboard');
    await gotoHydrated(page, '/courses/luxury-market');
    expect(await page.getByRole('link', { name: 'Upgrade to Access' }).getAttribute('href')).toBe('/pricing');
    expect(await page.getByRole('button', { name: 'Start Learning' }).count()).toBe(0);
    await gotoHydrated(page, '/community');
    expect(await page.locator('article[data-locked="true"]').count()).toBe(0);
    expect(await page.getByText('Join to see full discussion').count()).toBe(0);
  });
});
