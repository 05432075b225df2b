import { describe, expect, it } from 'vitest';
import { artworkSvg, seedOf } from './artwork.ts';

describe('generated cover artwork', () => {
  it('differs by category and, within one, by course; the title only names it for screen readers', () => {
    const cover = (title: string, theme: 'sales' | 'marketing' | 'podcast', key: string) =>
      artworkSvg({ title, label: theme, theme, seed: seedOf(key) });
    const sales = cover('Closing <Deals> & More', 'sales', 'closing');
    expect(sales).not.toBe(cover('Closing <Deals> & More', 'marketing', 'closing'));
    expect(sales).not.toBe(cover('Closing <Deals> & More', 'sales', 'another-course'));
    expect(sales).toBe(cover('Closing <Deals> & More', 'sales', 'closing'));
    expect(sales).toContain('aria-label="Closing &lt;Deals&gt; &amp; More"');
    expect(sales.match(/Closing/g)).toHaveLength(1);
    expect(cover('Ep', 'podcast', 'ep-1')).not.toBe(cover('Ep', 'podcast', 'ep-2'));
  });
});
