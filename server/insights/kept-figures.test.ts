import { describe, expect, it } from 'vitest';
import { KeptFigures } from './kept-figures.ts';

describe('KeptFigures', () => {
  it('keeps at most maxEntries, the oldest going first, and none past maxAgeMs', async () => {
    let at = 1_000_000;
    const kept = new KeptFigures({ maxEntries: 2, maxAgeMs: 100 }, () => new Date(at));
    let reads = 0;
    const read = (value: string) => async () => {
      reads += 1;
      return value;
    };
    await kept.get('a', read('a'));
    at += 10;
    await kept.get('b', read('b'));
    at += 10;
    await kept.get('c', read('c'));
    expect(kept.keys).toEqual(['b', 'c']);
    expect(await kept.get('b', read('b again'))).toBe('b');
    expect(reads).toBe(3);

    // 'b' was made 100 ms ago now, 'c' 90 ms ago.
    at += 90;
    expect(await kept.get('c', read('c again'))).toBe('c');
    expect(kept.keys).toEqual(['c']);
    // A clock set back counts as stale.
    at -= 1_000;
    expect(await kept.get('c', read('c once more'))).toBe('c once more');
  });

  it('answers a load that throws at once as a failed reading, and keeps nothing of it', async () => {
    const kept = new KeptFigures({ maxEntries: 2, maxAgeMs: 100 }, () => new Date(0));
    await expect(
      kept.get('a', () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(kept.keys).toEqual([]);
  });
});
