import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
    async newPage(options: { mobile?: boolean } = {}): Promise<Page> {
      const context = await browser.newContext({
        baseURL: baseUrl(),
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
