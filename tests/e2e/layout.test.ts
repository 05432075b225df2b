import { describe, expect, it } from 'vitest';
import { baseUrl, gotoHydrated, pageProblems, signInAsNewMember, signInAsStaff, useBrowser } from './browser.ts';
import { PUBLIC_PAGES } from './routes.ts';

const browser = useBrowser();

// Every route of the site layout: the public pages and the member dashboard.
const SITE_ROUTES = [...PUBLIC_PAGES.filter((path) => !path.startsWith('/courses/')), '/dashboard'];

describe('shared layout (server-rendered)', () => {
  it('answers every route in the route table with the layout in the HTML itself', async () => {
    const courses = (await (await fetch(`${baseUrl()}/api/courses`)).json()) as { id: string }[];
    for (const route of [...SITE_ROUTES, `/courses/${courses[0]!.id}`]) {
      const response = await fetch(`${baseUrl()}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type'), route).toMatch(/text\/html/);
      const html = await response.text();
      expect(html, route).toContain('<nav aria-label="Main"');
      expect(html, route).toContain('All rights reserved');
      expect(html, route).toContain('href="/pricing"');
    }
  });

  it('answers the admin screens with server-rendered HTML outside the site layout', async () => {
    for (const route of ['/admin/login', '/admin/dashboard']) {
      const response = await fetch(`${baseUrl()}${route}`);
      expect(response.status, route).toBe(200);
      expect(await response.text(), route).toContain('<html');
    }
  });

  it('forgets a session cookie that no longer works, leaving a signed-out visitor', async () => {
    // In production the cookie carries the __Host- prefix.
    const response = await fetch(`${baseUrl()}/`, { headers: { cookie: '__Host-rp_session=forged-or-expired' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/^__Host-rp_session=; Max-Age=0; Path=\//);
    expect(await response.text()).toContain('Get Started Today');
  });

  it('serves no paid file at a guessable public address', async () => {
    // The lesson videos and downloads used to sit in public/ under names anyone could read off the API.
    for (const path of ['/downloads/market-report-luxury-2026.pdf', '/media/lessons/lesson-preview-1.webm']) {
      expect((await fetch(`${baseUrl()}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${baseUrl()}/api/resources/market-report-luxury-2026/download`)).status).toBe(401);
  });

  it('answers a course address holding a NUL with the not-found page, not an error', async () => {
    const response = await fetch(`${baseUrl()}/courses/%00`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Course not found');
  });

  it('answers an unknown path with 404 and a not-found page inside the layout', async () => {
    const response = await fetch(`${baseUrl()}/no/such/page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('Page not found');
    expect(html).toContain('<nav aria-label="Main"');
    expect(html).toContain('All rights reserved');
  });
});

describe('shared layout (in the browser)', () => {
  it('shows the signed-out actions and footer links, and changes the nav style past 20 px of scroll', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/about');
    const nav = page.locator('header');
    await expect(page.getByRole('link', { name: 'Login' }).first().getAttribute('href')).resolves.toBe('/login');
    await expect(page.getByRole('link', { name: 'Get Started Today' }).first().getAttribute('href')).resolves.toBe('/signup');
    expect(await page.locator('header nav a').first().textContent()).toContain('RealtyPocket');
    expect(await page.locator('header nav a').first().getAttribute('href')).toBe('/');

    const footer = page.locator('footer');
    const footerLinks = await footer
      .locator('a')
      .evaluateAll((links) => links.map((link) => [link.textContent?.trim(), link.getAttribute('href')]));
    expect(footerLinks).toEqual(
      expect.arrayContaining([
        ['Courses', '/courses'],
        ['Podcast', '/podcast'],
        ['Community', '/community'],
        ['Pricing', '/pricing'],
        ['About', '/about'],
        ['Contact', '/contact'],
        ['Privacy Policy', '/privacy-policy'],
        ['Terms of Service', '/terms-of-service'],
      ]),
    );
    await footer.getByText('Download on iOS').waitFor();
    await footer.getByText('Get it on Android').waitFor();
    expect(await footer.textContent()).toMatch(/2025 .*All rights reserved/);

    // A short window, so even a short page can scroll past the threshold.
    await page.setViewportSize({ width: 1280, height: 400 });
    expect(await nav.getAttribute('data-scrolled')).toBe('false');
    await page.evaluate(() => window.scrollTo(0, 10));
    await page.waitForTimeout(100);
    expect(await nav.getAttribute('data-scrolled')).toBe('false');
    await page.evaluate(() => window.scrollTo(0, 120));
    await page.waitForFunction(() => document.querySelector('header')?.dataset.scrolled === 'true');

    // On a page that runs the app (/about is plain for a visitor: no toast to show), the toast area
    // is mounted (once the page is idle: its code is not part of the first load) at the top centre.
    await gotoHydrated(page, '/contact');
    await page.locator('section[aria-label^="Notifications"]').waitFor({ state: 'attached' });
    expect(await page.locator('section[aria-label^="Notifications"]').count()).toBe(1);
    expect(pageProblems(page)).toEqual([]);
  });

  it('opens the mobile menu, and closes it when a link is clicked', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const menu = page.locator('#mobile-menu');
    await menu.waitFor();
    for (const name of ['Courses', 'Podcast', 'Resources', 'Community', 'Pricing']) {
      await menu.getByRole('link', { name, exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Close menu' }).click();
    await menu.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Podcast', exact: true }).click();
    await page.waitForURL('**/podcast');
    expect(await page.locator('#mobile-menu').count()).toBe(0);
    // Nothing scrolls sideways on a 360 px phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

describe('the frame of every page', () => {
  it('keeps the pricing comparison on a 360 px phone with all three plans in view and nothing to scroll', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/pricing');
    const table = page.getByTestId('plan-comparison');
    await table.scrollIntoViewIfNeeded();
    for (const plan of ['Bronze', 'Silver', 'Gold']) {
      const box = (await table.getByRole('columnheader', { name: plan, exact: true }).boundingBox())!;
      expect(box.x, plan).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, plan).toBeLessThanOrEqual(360);
    }
    expect(await table.evaluate((element) => element.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  it('shows toasts at the top centre below the nav, on a phone and on a desktop', async () => {
    for (const mobile of [true, false]) {
      const page = await browser.newPage({ mobile });
      await gotoHydrated(page, '/login');
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      const shown = page.locator('[data-sonner-toast]', { hasText: 'Google OAuth coming soon' });
      await shown.waitFor();
      const nav = (await page.locator('header').boundingBox())!;
      // Measured once it has slid in.
      await expect
        .poll(async () => (await shown.boundingBox())!.y, { message: mobile ? 'phone' : 'desktop' })
        .toBeGreaterThanOrEqual(nav.y + nav.height);
    }
  });

  it('has one container width for the nav, the footer and the pages, and nav links that stay put when a member signs in', async () => {
    const page = await browser.newPage();
    const widest = async () => {
      const widths = await page.evaluate(() =>
        [...document.querySelectorAll('header nav, footer [class*="max-w-"], main [class*="max-w-"]')].map(
          (element) => element.getBoundingClientRect().width,
        ),
      );
      return Math.max(...widths);
    };
    const linkX = async () => (await page.locator('header nav').getByRole('link', { name: 'Courses', exact: true }).boundingBox())!.x;
    await gotoHydrated(page, '/courses');
    const before = await linkX();
    for (const path of ['/courses', '/resources', '/', '/pricing', '/podcast/episodes']) {
      await gotoHydrated(page, path);
      // 72rem: the one container (the nav's, the footer's and every page's).
      expect(await widest(), path).toBeLessThanOrEqual(1152);
      expect(await page.locator('header nav').evaluate((nav) => nav.getBoundingClientRect().width), path).toBe(1152);
    }
    await signInAsNewMember(page, 'A Member With A Rather Long Name Indeed');
    await gotoHydrated(page, '/courses');
    await page.locator('header').getByText('Welcome, A Member').waitFor();
    expect(await linkX()).toBe(before);
  });

  it('makes the contact email and phone links that write and call', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/contact');
    const email = (await page.locator('[data-content-field="email"]').textContent())!;
    expect(await page.getByRole('link', { name: email }).getAttribute('href')).toBe(`mailto:${email}`);
    const phone = (await page.locator('[data-content-field="phone"]').textContent())!;
    expect(await page.getByRole('link', { name: phone }).getAttribute('href')).toBe(`tel:${phone.replace(/[^\d+]/g, '')}`);
  });

  it('keeps edit mode on from page to page and through a reload; on a phone Edit Site closes the menu', async () => {
    const page = await browser.newPage();
    await signInAsStaff(page);
    await gotoHydrated(page, '/');
    await page.getByRole('button', { name: 'Edit Site' }).click();
    await page.locator('[data-editable="true"]').first().waitFor();
    await page.locator('header nav').getByRole('link', { name: 'Pricing', exact: true }).click();
    await page.waitForURL('**/pricing');
    expect(await page.getByRole('button', { name: 'Exit Edit' }).getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await page.getByRole('button', { name: 'Exit Edit' }).waitFor();
    await page.getByRole('button', { name: 'Exit Edit' }).click();
    await page.getByRole('button', { name: 'Edit Site' }).waitFor();
    expect(await page.locator('[data-editable="true"]').count()).toBe(0);

    const phone = await browser.newPage({ mobile: true });
    await signInAsStaff(phone);
    await gotoHydrated(phone, '/');
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await phone.locator('#mobile-menu').getByRole('button', { name: 'Edit Site' }).click();
    await phone.locator('#mobile-menu').waitFor({ state: 'detached' });
    await phone.locator('[data-editable="true"]').first().waitFor();
  });
});

describe('the look', () => {
  it('uses its own two fonts (preloaded, swapped in), portraits instead of empty boxes, and images on a still placeholder while loading', async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/');
    const preloads = await page
      .locator('link[rel="preload"][as="font"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(preloads).toHaveLength(2);
    for (const href of preloads) expect(href).toMatch(/^\/assets\/.+\.woff2$/);
    await page.evaluate(() => document.fonts.ready);
    expect(await page.evaluate(() => document.fonts.check('800 16px "Plus Jakarta Sans Variable"'))).toBe(true);
    expect(await page.locator('h1').evaluate((h1) => getComputedStyle(h1).fontFamily)).toMatch(/^"Plus Jakarta Sans Variable"/);
    expect(await page.locator('body').evaluate((body) => getComputedStyle(body).fontFamily)).toMatch(/^"Inter Variable"/);
    // No font comes from another site.
    const fontHosts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.woff2'))
        .map((entry) => new URL(entry.name).origin),
    );
    expect(new Set(fontHosts)).toEqual(new Set([new URL(page.url()).origin]));
    // The page's text needs only the two cut files; a character they lack (œ) loads the font's
    // full Latin file, so it keeps the site's font (docs/decisions/028).
    const fontFiles = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.endsWith('.woff2'))
          .map((entry) => new URL(entry.name).pathname),
      );
    expect(new Set(await fontFiles())).toEqual(new Set(preloads));
    await page.evaluate(() => document.querySelector('main p')?.append(' Cœur.'));
    await expect
      .poll(async () => (await fontFiles()).filter((file) => !preloads.includes(file)), { timeout: 5_000 })
      .toEqual([expect.stringMatching(/^\/assets\/inter-latin-wght-normal-.+\.woff2$/)]);

    for (const name of ['Sarah Mitchell', 'David Chen', 'Maria Rodriguez']) {
      await page.getByRole('img', { name, exact: true }).waitFor();
    }
    await gotoHydrated(page, '/courses');
    const image = page.locator('article img').first();
    expect(await image.getAttribute('class')).toContain('img-skeleton');
    // A moving placeholder would be painted again on every frame for as long as the page is open.
    expect(await image.evaluate((img) => getComputedStyle(img).animationName)).toBe('none');
  });

  it('paints before its scripts start: the styles are in the page, and the scripts load once it is read and painted', async () => {
    const page = await browser.newPage({ mobile: true });
    const response = await page.goto(`${baseUrl()}/pricing`);
    const html = (await response!.text()).split('</head>')[0]!;
    // Nothing in the head for the phone to fetch before it can paint: no stylesheet, no module preload.
    expect(html).toContain('<style data-site-styles');
    expect(html).not.toContain('rel="stylesheet"');
    expect(html).not.toContain('rel="modulepreload"');
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    // No script is fetched while the page is still being read: before, the preloads started with the head.
    const [parsed, firstScript] = await page.evaluate(() => [
      (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domInteractive,
      Math.min(
        ...performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.endsWith('.js'))
          .map((entry) => entry.startTime),
      ),
    ]);
    expect(firstScript).toBeGreaterThanOrEqual(parsed);
    // And it came alive: the yearly toggle answers.
    const yearly = page.getByRole('button', { name: 'Yearly', exact: true });
    await yearly.click();
    expect(await yearly.getAttribute('aria-pressed')).toBe('true');
  });
});
