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

  it('keeps a page through changes to discussions it does not show, and not through one to a discussion it shows', () => {
    const changedAt: Record<string, number> = { feed: 2, shown: 3, other: 3 };
    const community = {
      current: 10,
      keyedBy: 'discussion',
      versionOf: (key: string) => `k${changedAt[key] ?? 0}`,
    } as unknown as DataVersion;
    const cache = new OwnPageCache([{ current: 1 } as DataVersion, community]);
    const shows = ['feed', 'shown'];
    const start = cache.begin('ana')!;
    cache.store('/dashboard', 'ana', { ...page(cache.versionSince(start, 'ana', shows)!, 'mine'), discussions: shows });
    // A like on another discussion: the whole community moved on, this page did not.
    changedAt.other = 11;
    community.current = 11;
    expect(cache.lookup('/dashboard', 'ana')?.body.toString()).toBe('mine');
    changedAt.shown = 12;
    community.current = 12;
    expect(cache.lookup('/dashboard', 'ana')).toBeUndefined();

    // A discussion it shows changed while it was rendered: the page is sent once, not kept.
    const during = cache.begin('ana')!;
    changedAt.feed = 13;
    community.current = 13;
    expect(cache.versionSince(during, 'ana', shows)).toBeNull();
    // One it does not show changed meanwhile: kept.
    const again = cache.begin('ana')!;
    changedAt.other = 14;
    community.current = 14;
    expect(cache.versionSince(again, 'ana', shows)).toBe('1:k13,k12');
    // A page that names no discussion holds while nothing in the community changes.
    const whole = cache.begin('ana')!;
    community.current = 15;
    expect(cache.versionSince(whole, 'ana')).toBeNull();
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
