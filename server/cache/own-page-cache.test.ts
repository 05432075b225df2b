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
    expect(cache.versionFor('ana')).toBe('1:5:9');
    cache.store('/dashboard br session-a', 'ana', page('1:5:9', 'mine'));
    expect(cache.lookup('/dashboard br session-a', 'ana')?.body.toString()).toBe('mine');
    expect(cache.lookup('/dashboard br session-b', 'ana')).toBeUndefined();
    versions[1]!.current = 6;
    expect(cache.lookup('/dashboard br session-a', 'ana')).toBeUndefined();
    // A page rendered from data that changed meanwhile is not kept at all.
    cache.store('/dashboard br session-a', 'ana', page('1:5:9', 'old'));
    expect(cache.lookup('/dashboard br session-a', 'ana')).toBeUndefined();
  });

  it("keeps a member's page across another member's changes, and forgets it at their own", () => {
    const changedAt: Record<string, number> = { ana: 3, ben: 3 };
    const member = { current: 3, keyedBy: 'member', versionOf: (id: string) => `k${changedAt[id]}` } as unknown as DataVersion;
    const cache = new OwnPageCache([{ current: 1 } as DataVersion, member]);
    cache.store('/dashboard br session-a', 'ana', page(cache.versionFor('ana')!, 'mine'));
    changedAt.ben = 4;
    expect(cache.lookup('/dashboard br session-a', 'ana')?.body.toString()).toBe('mine');
    changedAt.ana = 5;
    expect(cache.lookup('/dashboard br session-a', 'ana')).toBeUndefined();
  });

  it('keeps a page a minute at most: it shows the time of day', () => {
    const cache = new OwnPageCache([{ current: 1 }] as DataVersion[]);
    cache.store('fresh', 'ana', page('1', 'now'));
    cache.store('stale', 'ana', page('1', 'before', Date.now() - CACHE_BOUNDS.ownPages.maxAgeMs - 1));
    expect(cache.lookup('fresh', 'ana')?.body.toString()).toBe('now');
    expect(cache.lookup('stale', 'ana')).toBeUndefined();
  });

  it('keeps nothing while a version is still unknown', () => {
    const cache = new OwnPageCache([{ current: 1 }, { current: -1 }] as DataVersion[]);
    expect(cache.versionFor('ana')).toBeNull();
  });
});
