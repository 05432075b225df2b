import { describe, expect, it } from 'vitest';
import { CACHE_BOUNDS } from '../../common/limits.ts';
import type { DataVersion } from './data-version.ts';
import { preferredEncoding, shareableAnswer, VisitorCache } from './visitor-cache.ts';

describe('preferredEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(preferredEncoding('br;q=0.0, gzip;q=0')).toBeUndefined();
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding(undefined)).toBeUndefined();
    expect(preferredEncoding('BR')).toBe('br');
  });
});

describe('VisitorCache', () => {
  const version = { current: 1 } as DataVersion;
  const answer = (at: number, text: string) => shareableAnswer(String(at), 200, { 'content-type': 'text/plain' }, Buffer.from(text));

  it('keeps an answer while its data version holds, and forgets it when the version moves on', async () => {
    const cache = new VisitorCache(version);
    cache.store('/a', await answer(1, 'one'));
    expect(cache.lookup('/a')?.identity.toString()).toBe('one');
    version.current = 2;
    expect(cache.lookup('/a')).toBeUndefined();
    // An answer made from older data is not kept at all.
    cache.store('/a', await answer(1, 'old'));
    expect(cache.lookup('/a')).toBeUndefined();
  });

  it('makes an answer once for many who ask together, and lets each make its own when it is not for sharing', async () => {
    const cache = new VisitorCache(version);
    let made = 0;
    const produce = async () => {
      made += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { share: await answer(version.current, 'shared') };
    };
    const answers = await Promise.all([cache.answer('/b', produce), cache.answer('/b', produce), cache.answer('/b', produce)]);
    expect(made).toBe(1);
    expect(answers.every((each) => 'share' in each && each.share.identity.toString() === 'shared')).toBe(true);

    let own = 0;
    const personal = async () => ({ own: (own += 1) });
    const mine = await Promise.all([cache.answer('/c', personal), cache.answer('/c', personal)]);
    expect(mine.map((each) => ('own' in each ? each.own : null)).sort()).toEqual([1, 2]);
  });

  it('keeps what shows the community while the community holds, and the rest through community changes', async () => {
    const catalogue = { current: 4 } as DataVersion;
    const community = { current: 7 } as DataVersion;
    const cache = new VisitorCache(catalogue, community);
    cache.store('page:/courses', await answer(4, 'courses'));
    cache.store('api:/api/community/posts', await shareableAnswer('4:7', 200, {}, Buffer.from('posts')));
    cache.store('page:/community?before=x', await shareableAnswer('4:7', 200, {}, Buffer.from('older')));
    community.current = 8;
    expect(cache.lookup('page:/courses')?.identity.toString()).toBe('courses');
    expect(cache.lookup('api:/api/community/posts')).toBeUndefined();
    expect(cache.lookup('page:/community?before=x')).toBeUndefined();
    catalogue.current = 5;
    expect(cache.lookup('page:/courses')).toBeUndefined();
  });

  it('gives up the answer used longest ago when full, however often the newest one was asked for', async () => {
    const bounds = CACHE_BOUNDS.visitorPages as { maxEntries: number };
    const maxEntries = bounds.maxEntries;
    bounds.maxEntries = 2;
    try {
      const cache = new VisitorCache({ current: 1 } as DataVersion);
      const keptTexts = (...keys: string[]) => keys.map((key) => cache.lookup(key)?.identity.toString());
      cache.store('/a', await answer(1, 'a'));
      cache.store('/b', await answer(1, 'b'));
      cache.lookup('/a');
      cache.lookup('/a');
      cache.store('/c', await answer(1, 'c'));
      expect(keptTexts('/a', '/b', '/c')).toEqual(['a', undefined, 'c']);
      // Now /c is the newest: /a, asked for again, goes after it, and /c is the one given up.
      cache.lookup('/c');
      cache.lookup('/a');
      cache.store('/d', await answer(1, 'd'));
      expect(keptTexts('/a', '/c', '/d')).toEqual(['a', undefined, 'd']);
    } finally {
      bounds.maxEntries = maxEntries;
    }
  });
});
