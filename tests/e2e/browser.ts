import fs from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// The machine has no outside network: background requests would only fail, slowly.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const baseUrl = () => inject('baseUrl');

let visitors = 0;
/** A documentation-range address per browser context: one visitor each. */
const nextVisitorAddress = () => `198.18.${process.pid % 250}.${++visitors % 250}`;

/**
 * One Chromium per test file. `newPage()` opens a page in a fresh context (no cookies, no storage);
 * pages that load a script error or an uncaught exception fail the test that made them.
 */
export function useBrowser() {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close().catch(() => {})));
    await browser?.close();
  });
  return {
    /** `bypassCSP` only for tools a test injects into the page (axe-core); the site's own scripts never need it. */
    async newPage(options: { mobile?: boolean; bypassCSP?: boolean } = {}): Promise<Page> {
      const context = await browser.newContext({
        baseURL: baseUrl(),
        extraHTTPHeaders: { 'x-forwarded-for': nextVisitorAddress() },
        bypassCSP: options.bypassCSP ?? false,
        viewport: options.mobile ? { width: 360, height: 740 } : { width: 1280, height: 900 },
        isMobile: options.mobile ?? false,
        hasTouch: options.mobile ?? false,
      });
      contexts.push(context);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      (page as Page & { problems: string[] }).problems = problems;
      return page;
    },
    get browser() {
      return browser;
    },
  };
}

/** Uncaught page errors seen so far on a page made by `newPage()`. */
export function pageProblems(page: Page): string[] {
  return (page as Page & { problems?: string[] }).problems ?? [];
}

/** Waits until React has hydrated the page, so clicks reach their handlers. */
export async function gotoHydrated(page: Page, url: string) {
  const response = await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  return response;
}

let accounts = 0;
/** A unique email for an account a test creates. */
export const newEmail = (prefix = 'agent') => `${prefix}-${Date.now()}-${++accounts}-${process.pid}@example.com`;

/**
 * Signs a page in as a new free member through the API: the session cookie lands in the page's
 * context. For tests where signing in is not what they test.
 */
export async function signInAsNewMember(page: Page, name = 'Test Member'): Promise<{ email: string; password: string }> {
  const email = newEmail();
  const password = 'member-password-1';
  const response = await page.request.post('/api/auth/register', { data: { name, email, password } });
  if (response.status() !== 201) throw new Error(`Could not register a test member: ${response.status()} ${await response.text()}`);
  return { email, password };
}

/** How many members the site counts now (the public figures the pages show). */
export async function countedMembers(): Promise<number> {
  return ((await (await fetch(`${baseUrl()}/api/admin/analytics/content`)).json()) as { total_users: number }).total_users;
}

/**
 * The member count a page shows in `text` (the number before `+` in `pattern`'s first group), checked
 * against the counts read before and after the page was made: other test files sign members up
 * meanwhile, so the exact number is not known, only its bounds.
 */
export function expectMemberCountIn(text: string | null, pattern: RegExp, counted: { before: number; after: number }, where = '') {
  const shown = Number(pattern.exec(text ?? '')?.[1]);
  expect(shown, `the member count shown ${where}`).toBeGreaterThanOrEqual(Math.max(1, counted.before));
  expect(shown, `the member count shown ${where}`).toBeLessThanOrEqual(counted.after);
  return shown;
}

/** Signs a page in as the staff account the test server was started with, by cookie. */
export async function signInAsStaff(page: Page): Promise<void> {
  const response = await page.request.post('/api/admin/login', {
    data: { email: inject('adminEmail'), password: inject('adminPassword') },
  });
  if (!response.ok()) throw new Error(`Could not sign the staff account in: ${response.status()}`);
}

/** The emails the server has sent to this address so far (it writes them as .eml files), oldest first. */
export async function mailTo(address: string): Promise<ParsedMail[]> {
  const dir = inject('outboxDir');
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.eml'))
    .sort();
  const parsed = await Promise.all(files.map((file) => simpleParser(fs.readFileSync(path.join(dir, file)))));
  return parsed.filter((mail) =>
    [mail.to].flat().some((to) => to?.value.some((value) => value.address?.toLowerCase() === address.toLowerCase())),
  );
}

/** The first link in the newest email to this address that starts with `prefix`, once it has arrived. */
export async function linkFromMail(address: string, prefix: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = await mailTo(address);
        link = mails
          .reverse()
          .map((mail) => new RegExp(`${prefix.replace(/[.?/]/g, '\\$&')}[^\\s\\]]+`).exec(mail.text ?? '')?.[0])
          .find(Boolean);
        return link;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return link!;
}

/** Waits for a toast with this text. */
export const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();

/** A new member at this tier (set by staff, as the admin Members tab does), signed in on a fresh page. */
export async function signInAtTier(
  browser: ReturnType<typeof useBrowser>,
  tier: 'free' | 'bronze' | 'silver' | 'gold',
  name: string,
  options: { mobile?: boolean } = {},
): Promise<{ page: Page; email: string }> {
  const page = await browser.newPage(options);
  const email = newEmail(tier);
  const registered = await page.request.post('/api/auth/register', { data: { name, email, password: 'member-password-1' } });
  if (registered.status() !== 201) throw new Error(`Could not register a test member: ${registered.status()}`);
  const staff = await browser.newPage();
  await signInAsStaff(staff);
  const [listed] = (await (await staff.request.get(`/api/admin/members?search=${encodeURIComponent(email)}`)).json()) as { id: string }[];
  const changed = await staff.request.post(`/api/admin/members/${listed!.id}/tier`, { data: { membership_tier: tier } });
  if (changed.status() !== 200) throw new Error(`Could not set the test member's tier: ${changed.status()}`);
  await staff.close();
  return { page, email };
}

/** The staff account takes 1-on-1s every day from 08:00 to 20:00 UTC, two days' notice ahead. */
export async function openTheCoachesWeek(browser: ReturnType<typeof useBrowser>) {
  const staff = await browser.newPage();
  await signInAsStaff(staff);
  const answer = await staff.request.put('/api/admin/one-on-one/availability', {
    data: {
      time_zone: 'UTC',
      accepting: true,
      meeting_url: 'https://meet.example.com/one-on-one',
      slot_minutes: 60,
      min_notice_hours: 48,
      windows: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, starts: '08:00', ends: '20:00', kind: 'open' })),
      days_off: [],
    },
  });
  expect(answer.status()).toBe(200);
  await staff.close();
}

/** Plays the lesson player's video from this second (muted, so no gesture is needed). */
export async function playVideo(player: Locator, seconds: number | 'near-end') {
  const video = player.locator('video');
  // Metadata may take a while on a busy machine: the poll waits up to 15 s, not the default second.
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  await video.evaluate(async (element: HTMLVideoElement, from) => {
    element.muted = true;
    element.currentTime = from === 'near-end' ? element.duration - 0.3 : from;
    await element.play();
  }, seconds);
}

/** A page in a context with JavaScript switched off, like a browser whose script has not loaded. */
export async function pageWithoutJavaScript(b: Browser): Promise<Page> {
  const context = await b.newContext({
    baseURL: baseUrl(),
    javaScriptEnabled: false,
    extraHTTPHeaders: { 'x-forwarded-for': '198.19.0.1' },
  });
  return context.newPage();
}

/** A page signed in as staff (by cookie: signing in through the form is tested once), on the admin dashboard. */
export async function adminPage(browser: ReturnType<typeof useBrowser>): Promise<Page> {
  const page = await browser.newPage();
  await signInAsStaff(page);
  await gotoHydrated(page, '/admin/dashboard');
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
  return page;
}

/** Opens an admin tab by its link; each tab has its own address. */
export async function openTab(page: Page, name: string, path: string) {
  const tab = page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name });
  await tab.click();
  await page.waitForURL((url) => url.pathname === path);
  await page.locator(`nav[aria-label="Admin sections"] a[aria-current="page"][href="${path}"]`).waitFor();
}

/** Collects window.alert texts and accepts them. */
export function collectAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  return alerts;
}

/** Browser test files share one server: whatever a test changes is put back after it, last change first. */
export function usePutBack(): (restore: () => Promise<void>) => void {
  const restorers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (restorers.length) await restorers.pop()!();
  });
  return (restore) => void restorers.push(restore);
}

/** A free course with a certificate that states the score, and one quiz lesson (no questions yet). */
export async function courseWithQuizLesson(staff: Page): Promise<{ courseId: string; lessonId: string; title: string }> {
  const title = `Contracts Check ${Date.now()}`;
  const created = await staff.request.post('/api/admin/courses', {
    data: {
      title,
      description: 'What a purchase agreement holds, checked.',
      category: 'business',
      tier: 'free',
      instructor: 'Dana Whitfield',
      level: 'beginner',
      duration: '15m',
      certificate: true,
      certificate_shows_score: true,
    },
  });
  expect(created.status()).toBe(201);
  const courseId = ((await created.json()) as { course: { id: string } }).course.id;
  const added = await staff.request.post(`/api/admin/courses/${courseId}/lessons`, {
    data: { kind: 'quiz', title: 'Check your contracts knowledge', duration: '5:00', description: 'Two questions.' },
  });
  expect(added.status()).toBe(201);
  const lessonId = ((await added.json()) as { lessons: { id: string }[] }).lessons.at(-1)!.id;
  return { courseId, lessonId, title };
}

/** Writes a quiz of one question (the right answer: 'Right') by the API, and publishes its course. */
export async function writeQuizAndPublish(staff: Page, courseId: string, lessonId: string): Promise<void> {
  const saved = await staff.request.put(`/api/admin/lessons/${lessonId}/quiz`, {
    data: {
      pass_percent: 100,
      questions: [
        {
          kind: 'single',
          prompt: 'Which answer is right?',
          explanation: 'The one that says so.',
          options: [
            { text: 'Right', correct: true },
            { text: 'Wrong', correct: false },
          ],
        },
      ],
    },
  });
  expect(saved.status()).toBe(200);
  expect((await staff.request.post(`/api/admin/courses/${courseId}/status`, { data: { status: 'published' } })).status()).toBe(200);
}
