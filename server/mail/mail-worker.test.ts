import { describe, expect, it } from 'vitest';
import { retryDelay, triesLeft } from './mail-worker.ts';

describe('mail retries', () => {
  it('wait longer after each failed try, up to a minute, so mail goes out within a minute of the server coming back', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelay(attempt, 15_000))).toEqual([15_000, 30_000, 40_000, 40_000]);
    expect(retryDelay(11, 30_000)).toBe(40 * 1000);
  });

  it('wait out an outage for days, but give up on a message the server refuses for good after a few tries', () => {
    const now = Date.now();
    const hourOld = new Date(now - 60 * 60 * 1000);
    const unreachable = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const refused = Object.assign(new Error('550 No such mailbox'), { responseCode: 550 });
    expect(triesLeft(unreachable, 60, hourOld, now)).toBe(true);
    expect(triesLeft(unreachable, 2, new Date(now - 4 * 24 * 60 * 60 * 1000), now)).toBe(false);
    expect(triesLeft(refused, 2, hourOld, now)).toBe(true);
    expect(triesLeft(refused, 3, hourOld, now)).toBe(false);
  });
});
