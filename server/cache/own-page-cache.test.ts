import { describe, expect, it } from 'vitest';
import { CACHE_BOUNDS } from '../../common/limits.ts';
import type { DataVersion } from './data-version.ts';
import { OwnPageCache } from './own-page-cache.ts';

describe('OwnPageCache', () => {
  const page = (version: string, text: string, madeAt = Date.now()) => ({
    version,
    madeAt,
    headers: { 'content-type': 'text/html' },
    body: Buffer.from(text),
  });

  it('keeps a page while every data version holds, and forgets it when any moves on', () => {
    const versions = [{ current: 1 }, { current: 5 }, { current: 9 }] as DataVersion[];
    const cache = new OwnPageCache(versions);
    expect(cache.currentVersion).toBe('1:5:9');
    cache.store('/dashboard br session-a', page('1:5:9', 'mine'));
    expect(cache.lookup('/dashboard br session-a')?.body.toString()).toBe('mine');
    expect(cache.lookup('/dashboard br session-b')).toBeUndefined();
    versions[1]!.current = 6;
    expect(cache.lookup('/dashboard br session-a')).toBeUndefined();
    // A page rendered from data that changed meanwhile is not kept at all.
    cache.store('/dashboard br session-a', page('1:5:9', 'old'));
    expect(cache.lookup('/dashboard br session-a')).toBeUndefined();
  });

  it('keeps a page a minute at most: it shows the time of day', () => {
    const cache = new OwnPageCache([{ current: 1 }] as DataVersion[]);
    cache.store('fresh', page('1', 'now'));
    cache.store('stale', page('1', 'before', Date.now() - CACHE_BOUNDS.ownPages.maxAgeMs - 1));
    expect(cache.lookup('fresh')?.body.toString()).toBe('now');
    expect(cache.lookup('stale')).toBeUndefined();
  });

  it('keeps nothing while a version is still unknown', () => {
    const cache = new OwnPageCache([{ current: 1 }, { current: -1 }] as DataVersion[]);
    expect(cache.currentVersion).toBeNull();
  });
});
