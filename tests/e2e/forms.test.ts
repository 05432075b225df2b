import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { requestByHand } from '../helpers/by-hand.ts';
import { baseUrl, gotoHydrated, newEmail, pageWithoutJavaScript, signInAsNewMember, useBrowser } from './browser.ts';

// The public forms are page actions: they work before (or without) the page's script, answer
// with field errors, and the page after a sign-in is signed in from its first paint.
const browser = useBrowser();

async function fillSignup(page: Page, name: string, email: string, password: string) {
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('checkbox').check();
}

describe('sign-up and sign-in without JavaScript', () => {
  it('signs up, lands on the dashboard signed in, logs out, and signs back in', async () => {
    const page = await pageWithoutJavaScript(browser.browser);
    try {
      const email = newEmail('nojs');
      await page.goto('/signup');
      await fillSignup(page, 'Noor Script', email, 'no-script-1');
      await page.getByRole('button', { name: 'Create Free Account' }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.getByRole('heading', { name: 'Welcome, Noor Script!' }).waitFor();
      await page.locator('header').getByText('Welcome, Noor Script').waitFor();

      await page.locator('header').getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.locator('header').getByRole('link', { name: 'Login' }).waitFor();

      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      // Without script there is no toast: the server's message is on the page.
      await page.getByRole('alert').getByText('Invalid email or password').waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('no-script-1');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.locator('header').getByText('Welcome, Noor Script').waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('shows why a sign-up was refused next to the form', async () => {
    const page = await pageWithoutJavaScript(browser.browser);
    try {
      const email = newEmail('taken');
      expect((await page.request.post('/api/auth/register', { data: { name: 'First', email, password: 'secret12' } })).status()).toBe(201);
      await page.context().clearCookies();
      await page.goto('/signup');
      await fillSignup(page, 'Second', email, 'secret12');
      await page.getByRole('button', { name: 'Create Free Account' }).click();
      await page.getByRole('alert').getByText('An account with this email already exists. Please log in instead.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/signup');
    } finally {
      await page.context().close();
    }
  });
});

describe('form posts answer with field errors', () => {
  it('refuses a sign-up the browser would have stopped, with the message under each field', async () => {
    const response = await fetch(`${baseUrl()}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: '', email: 'not-an-email', password: '123' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('set-cookie') ?? '').not.toContain('rp_session=');
    const html = await response.text();
    for (const message of ['Name is required', 'Please enter a valid email address', 'Must be at least 6 characters']) {
      expect(html).toContain(message);
    }
  });

  it('signs in by a plain form post: a redirect to the dashboard with the session cookie', async () => {
    const email = newEmail('post');
    await fetch(`${baseUrl()}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Form Post', email, password: 'form-post-1' }),
    });
    const response = await fetch(`${baseUrl()}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: 'form-post-1' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/dashboard');
    // Production cookies: Secure, HttpOnly and __Host- prefixed.
    const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('__Host-rp_session='));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/Secure/i);
  });

  it('answers a post with no body at all (no length, with or without a type) as it answers an empty form', async () => {
    const statusOf = async (headerLines: string[]) =>
      (await requestByHand(baseUrl(), { method: 'POST', path: '/login', headerLines })).status;
    const emptyForm = await statusOf(['Content-Type: application/x-www-form-urlencoded', 'Content-Length: 0']);
    expect(emptyForm).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(await statusOf([])).toBe(await statusOf(['Content-Length: 0']));
    expect(await statusOf(['Content-Type: application/x-www-form-urlencoded'])).toBe(emptyForm);
  });

  it('refuses a form larger than a page form may be', async () => {
    const response = await fetch(`${baseUrl()}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `message=${'x'.repeat(2 * 1024 * 1024)}`,
    });
    expect(response.status).toBe(413);
  });
});

describe('contact and enrolment without JavaScript', () => {
  it('sends a contact message and confirms it on the page', async () => {
    const page = await pageWithoutJavaScript(browser.browser);
    try {
      await page.goto('/contact');
      await page.getByLabel('Your Name').fill('Casey NoScript');
      await page.getByLabel('Email Address').fill('casey@example.com');
      await page.getByLabel('Subject').fill('Team pricing');
      await page.getByLabel('Message').fill('We are 6 agents.');
      await page.getByRole('button', { name: 'Send Message' }).click();
      await page.getByRole('status').getByText("Thank you for your message! We'll get back to you soon.").waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('enrols in a free course with the Start Learning button', async () => {
    const page = await pageWithoutJavaScript(browser.browser);
    try {
      await signInAsNewMember(page, 'Enrol NoScript');
      await page.goto('/courses/sphere-of-influence');
      await page.getByRole('button', { name: 'Start Learning' }).click();
      await page.getByTestId('course-progress').getByText('0%').waitFor();
      // Enrolled: each lesson without a video now offers its 'Mark as complete' form (inside the closed
      // curriculum items); the other two complete when their video has been watched.
      expect(await page.getByRole('button', { name: 'Mark as complete', includeHidden: true }).count()).toBe(3);
    } finally {
      await page.context().close();
    }
  });
});

describe('after sign-up', () => {
  it('paints the dashboard signed in from its very first frame', async () => {
    const page = await browser.newPage();
    // Every frame painted on /dashboard is checked: the nav must greet the member, and no
    // loading placeholder may show.
    await page.addInitScript(() => {
      const frames: { nav: string; loading: boolean }[] = [];
      (window as unknown as { dashboardFrames: typeof frames }).dashboardFrames = frames;
      const watch = () => {
        const main = document.querySelector('main')?.textContent ?? '';
        const loading = main.includes('Loading dashboard...');
        const dashboard = document.querySelector('main h1')?.textContent?.startsWith('Welcome') ?? false;
        if (loading || dashboard) frames.push({ nav: document.querySelector('header')?.textContent ?? '', loading });
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
    await gotoHydrated(page, '/signup');
    await fillSignup(page, 'First Paint', newEmail('paint'), 'first-paint-1');
    await page.getByRole('button', { name: 'Create Free Account' }).click();
    await page.getByRole('heading', { name: 'Welcome, First Paint!' }).waitFor();
    const frames = await page.evaluate(
      () => (window as unknown as { dashboardFrames: { nav: string; loading: boolean }[] }).dashboardFrames,
    );
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      expect(frame.loading).toBe(false);
      expect(frame.nav).toContain('Welcome, First Paint');
      expect(frame.nav).not.toContain('Get Started Today');
    }
  });
});
