import { describe, expect, it } from 'vitest';
import { retryDelay } from './mail-worker.ts';

describe('mail retries', () => {
  it('wait longer after each failed try, up to an hour', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelay(attempt, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelay(11, 30_000)).toBe(60 * 60 * 1000);
  });
});
