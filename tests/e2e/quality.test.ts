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
    const page = await browser.newPage();
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
});
