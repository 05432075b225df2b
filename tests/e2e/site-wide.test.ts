import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  adminPage,
  baseUrl,
  collectAlerts,
  countedMembers,
  expectMemberCountIn,
  gotoHydrated,
  openTab,
  pageProblems,
  signInAsNewMember,
  signInAsStaff,
  useBrowser,
  usePutBack,
} from './browser.ts';

// What staff write for every visitor (the home page's hero, the site's numbers, the Help Center,
// the store links, the photos). Other browser test files assert the defaults of those texts, so
// these tests run after them and one file at a time (the 'e2e-site-wide' project in
// vitest.config.ts); each still puts back what it changed.

const browser = useBrowser();
const putBack = usePutBack();

/** Remembers a content section as it is, to be put back after the test. */
async function snapshotContent(page: Page, section: string) {
  const original = (await (await page.request.get(`/api/admin/content/${section}`)).json()).data;
  putBack(async () => {
    await page.request.post(`/api/admin/content/${section}`, { data: original });
  });
  return original as Record<string, string>;
}

/** A staff page that has remembered the content sections it is about to change. */
async function staffChanging(...sections: string[]): Promise<Page> {
  const staff = await browser.newPage();
  await signInAsStaff(staff);
  for (const section of sections) await snapshotContent(staff, section);
  return staff;
}

/** Clicks an editable text and waits until it has the focus, ready for typing. */
async function startEditing(page: Page, selector: string) {
  await page.locator(selector).click();
  await page.waitForFunction((css) => document.activeElement === document.querySelector(css), selector);
}

const htmlOf = async (path: string) => (await fetch(`${baseUrl()}${path}`)).text();

const SECTION_CHECKS: { section: string; label: string; field: string; page: string }[] = [
  { section: 'homepage_hero', label: 'Homepage - Hero Section', field: 'headline', page: '/' },
  { section: 'homepage_features', label: 'Homepage - Features', field: 'feature2_title', page: '/' },
  { section: 'about_mission', label: 'About - Mission', field: 'founder_name', page: '/about' },
  { section: 'contact_info', label: 'Contact Information', field: 'phone', page: '/contact' },
  { section: 'footer_text', label: 'Footer', field: 'tagline', page: '/pricing' },
  { section: 'podcast_labels', label: 'Podcast - Labels', field: 'page_title', page: '/podcast' },
];

describe('content tab', () => {
  it('edits every section, previews it as JSON, and the public page shows the new text', async () => {
    const page = await adminPage(browser);
    const alerts = collectAlerts(page);
    await openTab(page, 'Content', '/admin/dashboard/content');
    await page.getByRole('heading', { name: 'Edit Page Content' }).waitFor();
    for (const check of SECTION_CHECKS) {
      await snapshotContent(page, check.section);
      await page.locator('#content-section').selectOption({ label: check.label });
      const input = page.locator(`[name="${check.field}"]`);
      await expect.poll(() => input.inputValue()).not.toBe('');
      const text = `Edited ${check.field} ${Date.now()}`;
      await input.fill(text);
      expect(await page.getByTestId('content-preview').textContent()).toContain(`"${check.field}": "${text}"`);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => alerts.at(-1)).toBe('Content saved successfully!');
      alerts.length = 0;
      const site = await browser.newPage();
      await gotoHydrated(site, check.page);
      expect(await site.getByText(text, { exact: true }).count(), check.section).toBe(1);
      await site.close();
    }
    // Field labels turn underscores into spaces; 'desc' and 'content' fields are 4-row text areas.
    await page.locator('#content-section').selectOption({ label: 'Homepage - Features' });
    expect(await page.locator('textarea[name="feature1_desc"]').getAttribute('rows')).toBe('4');
    expect(await page.getByText('feature1 title', { exact: true }).count()).toBe(1);
  });
});

describe('in-place editing', () => {
  it('offers Edit Site to staff only, saves with Enter and on blur, reverts with Escape, and stores plain text', async () => {
    const visitor = await browser.newPage();
    await gotoHydrated(visitor, '/');
    expect(await visitor.getByRole('button', { name: 'Edit Site' }).count()).toBe(0);

    const page = await adminPage(browser);
    const original = await snapshotContent(page, 'homepage_hero');
    await gotoHydrated(page, '/');
    await page.locator('header').getByRole('button', { name: 'Edit Site' }).click();
    const headline = page.locator('h1[data-content-field="headline"]');
    await startEditing(page, 'h1[data-content-field="headline"]');
    await page.keyboard.type('<em>Sell</em> More Homes');
    await page.keyboard.press('Escape');
    expect(await headline.textContent()).toBe(original.headline);

    await startEditing(page, 'h1[data-content-field="headline"]');
    await page.keyboard.type('<em>Sell</em> More Homes');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Saving...').waitFor();
    await page.waitForEvent('load');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    expect(await page.locator('h1').textContent()).toBe('<em>Sell</em> More Homes');
    expect(await page.locator('h1 em').count()).toBe(0);

    // Edit mode is still on after the reload that follows a save, until staff switch it off.
    await page.locator('header').getByRole('button', { name: 'Exit Edit' }).waitFor();
    await startEditing(page, '[data-content-field="subheadline"]');
    await page.keyboard.type('Saved when you click away');
    await page.locator('footer').click({ position: { x: 5, y: 5 } });
    await page.waitForEvent('load');
    await page.getByText('Saved when you click away').waitFor();
    await page.locator('header').getByRole('button', { name: 'Exit Edit' }).click();
    expect(await page.getByRole('button', { name: 'Edit Site' }).count()).toBe(1);
    expect(pageProblems(page)).toEqual([]);
  });
});

describe('pages kept for visitors', () => {
  it('shows a change on the very next visit', async () => {
    const staff = await staffChanging('homepage_hero');
    const save = (headline: string) =>
      staff.request.post('/api/admin/content/homepage_hero', { data: { headline, subheadline: 'Sub', cta_text: 'Join now' } });
    expect((await save('Kept until it changes')).status()).toBe(200);
    expect(await htmlOf('/')).toContain('Kept until it changes');
    expect(await htmlOf('/')).toContain('Kept until it changes');
    expect((await save('Changed for everyone')).status()).toBe(200);
    const html = await htmlOf('/');
    expect(html).toContain('Changed for everyone');
    expect(html).not.toContain('Kept until it changes');
  });
});

describe('what staff write for every page', () => {
  it('shows one number per fact on every page: the real counts, or the copy staff write', async () => {
    // At least one member, so there is a count to show (none is shown as '0+').
    await signInAsNewMember(await browser.newPage(), 'Counted Member');
    const staff = await staffChanging('site_numbers');
    const visitor = await browser.newPage();
    const membersOn = async (path: string) => {
      await gotoHydrated(visitor, path);
      return visitor.locator('main').textContent();
    };
    for (const [path, pattern] of [
      ['/', /(\d+)\+ Active Members/],
      ['/about', /(\d+)\+Active members/],
      ['/community', /(\d+)\+ Active Members/],
    ] as const) {
      const before = await countedMembers();
      const text = await membersOn(path);
      expectMemberCountIn(text, pattern, { before, after: await countedMembers() }, `on ${path}`);
      expect(text, path).not.toContain('10,000+');
      expect(text, path).not.toMatch(/(^|\D)0\+/);
    }
    const every = { members: '', courses: '', rating: '', daily_posts: '', years: '' };
    const saved = await staff.request.post('/api/admin/content/site_numbers', { data: { ...every, members: '10,000+', courses: '50+' } });
    expect(saved.ok()).toBe(true);
    await gotoHydrated(visitor, '/');
    await visitor.getByText('Trusted by 10,000+ Real Estate Professionals').waitFor();
    expect(await visitor.getByTestId('stat-courses').textContent()).toBe('50+ Courses');
    expect(await membersOn('/about')).toContain('10,000+Active members');
    expect(await membersOn('/community')).toContain('10,000+ Active Members');
  });

  it('shows what staff write in the Help Center content section', async () => {
    const staff = await staffChanging('help_center');
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
  });

  it("shows the founder's photo once staff set one", async () => {
    const staff = await staffChanging('site_photos');
    await gotoHydrated(staff, '/about');
    const founder = staff.getByRole('img', { name: 'Michael Reyes' });
    expect(await founder.evaluate((element) => element.tagName)).toBe('SPAN');
    const photos = {
      founder_photo: '/images/courses/luxury-market.svg',
      testimonial1_photo: '',
      testimonial2_photo: '',
      testimonial3_photo: '',
    };
    const saved = await staff.request.post('/api/admin/content/site_photos', { data: photos });
    expect(saved.ok(), await saved.text()).toBe(true);
    await gotoHydrated(staff, '/about');
    expect(await founder.evaluate((element) => element.tagName)).toBe('IMG');
    expect(await founder.getAttribute('src')).toBe('/images/courses/luxury-market.svg');
  });

  it('links the store badges once staff set the stores', async () => {
    const staff = await staffChanging('mobile_app');
    const stores = {
      ios_url: 'https://apps.apple.com/app/id1234567890',
      android_url: 'https://play.google.com/store/apps/details?id=com.realtypocket',
    };
    expect((await staff.request.post('/api/admin/content/mobile_app', { data: stores })).ok()).toBe(true);
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/');
    expect(await page.getByRole('link', { name: 'Download on iOS' }).getAttribute('href')).toBe(stores.ios_url);
    expect(await page.getByRole('link', { name: 'Get it on Android' }).getAttribute('href')).toBe(stores.android_url);
    expect(pageProblems(page)).toEqual([]);
  });
});
