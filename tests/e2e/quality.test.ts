import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, useBrowser } from './browser.ts';
import { PUBLIC_PAGES } from './routes.ts';

const browser = useBrowser();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

describe('page quality', () => {
  it('renders every public page on a 360 px phone without sideways scrolling', async () => {
    const page = await browser.newPage({ mobile: true });
    for (const path of PUBLIC_PAGES) {
      await gotoHydrated(page, path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(360);
    }
  });

  it('gives every public page its own title, description and Open Graph tags', async () => {
    const page = await browser.newPage();
    const titles = new Set<string>();
    for (const path of PUBLIC_PAGES) {
      await gotoHydrated(page, path);
      titles.add(await page.title());
      expect(await page.locator('meta[name="description"]').getAttribute('content'), path).toBeTruthy();
      expect(await page.locator('meta[property="og:title"]').getAttribute('content'), path).toBeTruthy();
    }
    expect(titles.size).toBe(PUBLIC_PAGES.length);
  });

  it('has no serious or critical accessibility violations (axe-core)', async () => {
    // axe-core is injected as an inline script, which the site's CSP rightly refuses.
    const page = await browser.newPage({ bypassCSP: true });
    for (const path of PUBLIC_PAGES) {
      await gotoHydrated(page, path);
      await page.addScriptTag({ path: axePath });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (options: object) => Promise<{ violations: { id: string; impact: string }[] }> } })
          .axe;
        const result = await axe.run({ resultTypes: ['violations'] });
        return result.violations
          .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
          .map((violation) => violation.id);
      });
      expect(violations, path).toEqual([]);
    }
  });

  it('allows no inline script without the page nonce, and every page runs under that policy', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    for (const path of PUBLIC_PAGES) {
      const response = await gotoHydrated(page, path);
      const policy = (await response!.allHeaders())['content-security-policy'] ?? '';
      const scriptSrc = policy.split(';').find((directive) => directive.trim().startsWith('script-src ')) ?? '';
      expect(scriptSrc, path).not.toContain("'unsafe-inline'");
      const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
      expect(nonce, path).toBeTruthy();
      // Every inline script of the page carries this very nonce; a second load gets a new one.
      const html = await response!.text();
      const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1] ?? '');
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const attributes of scripts) expect(attributes, path).toContain(`nonce="${nonce}"`);
    }
    const policies = await Promise.all([page.request.get('/'), page.request.get('/')]).then((answers) =>
      answers.map((answer) => answer.headers()['content-security-policy']),
    );
    expect(policies[0]).not.toBe(policies[1]);
    // An injected inline script without the nonce does not run.
    await gotoHydrated(page, '/');
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
    });
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((text) => text.includes('window.injected') || /inline script/i.test(text))).toBe(true);
  });
});
