import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, signInAsNewMember, useBrowser } from './browser.ts';
import { PUBLIC_PAGES } from './routes.ts';

const browser = useBrowser();
// axe-core on every page, at any impact, for every kind of viewer: accessibility.test.ts.

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

  it("allows no inline script but the page's own: by hash on pages shared by visitors and the kept dashboard, by nonce on other signed-in pages", async () => {
    const PLAIN_FOR_VISITORS = ['/', '/pricing', '/about', '/privacy-policy', '/terms-of-service'];
    const scriptSrcOf = (policy: string) => policy.split(';').find((directive) => directive.trim().startsWith('script-src ')) ?? '';
    const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g)];
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // The same page for every visitor (and the dashboard, kept for its member), so no nonce: each
    // inline script is allowed by its own hash.
    const expectAllowedByHash = async (path: string) => {
      const response = await gotoHydrated(page, path);
      const scriptSrc = scriptSrcOf((await response!.allHeaders())['content-security-policy'] ?? '');
      expect(scriptSrc, path).not.toContain("'unsafe-inline'");
      const html = await response!.text();
      expect(html, path).not.toContain('nonce=');
      const scripts = inlineScripts(html);
      // A visitor's plain page (decision 027) has none at all: only the site's own enhancer.
      if (PLAIN_FOR_VISITORS.includes(path)) {
        expect(scripts, path).toEqual([]);
        expect(scriptSrc.trim(), path).toBe("script-src 'self'");
        return;
      }
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const [, , content] of scripts) {
        expect(scriptSrc, path).toContain(`'sha256-${createHash('sha256').update(content!, 'utf8').digest('base64')}'`);
      }
    };
    for (const path of PUBLIC_PAGES) await expectAllowedByHash(path);

    // Another signed-in page is rendered for its member alone: a nonce of its own, new on every load.
    await signInAsNewMember(page, 'Nonce Checker');
    await expectAllowedByHash('/dashboard');
    const response = await gotoHydrated(page, '/account');
    const nonce = /'nonce-([^']+)'/.exec(scriptSrcOf((await response!.allHeaders())['content-security-policy'] ?? ''))?.[1];
    expect(nonce).toBeTruthy();
    for (const [, attributes] of inlineScripts(await response!.text())) expect(attributes).toContain(`nonce="${nonce}"`);
    const policies = await Promise.all([page.request.get('/account'), page.request.get('/account')]).then((answers) =>
      answers.map((answer) => answer.headers()['content-security-policy']),
    );
    expect(policies[0]).not.toBe(policies[1]);

    // An injected inline script runs on neither.
    for (const path of ['/', '/dashboard', '/account']) {
      await gotoHydrated(page, path);
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.injected = true';
        document.body.append(script);
      });
      expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected), path).toBeUndefined();
    }
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((text) => text.includes('window.injected') || /inline script/i.test(text))).toBe(true);
  });
});
