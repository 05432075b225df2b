import { describe, expect, it } from 'vitest';
import { addLocalDays, formatInZone, instantOf, isTimeZone, localDateOf, localTimeOf } from './time-zones.ts';

describe('time zones', () => {
  it('knows IANA zones and refuses anything else', () => {
    expect(isTimeZone('America/Chicago')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('turns a wall-clock time into the instant, on either side of a daylight-saving change', () => {
    // New York: UTC-5 in winter, UTC-4 in summer.
    expect(instantOf({ year: 2026, month: 1, day: 15, hour: 18, minute: 0 }, 'America/New_York').toISOString()).toBe(
      '2026-01-15T23:00:00.000Z',
    );
    expect(instantOf({ year: 2026, month: 7, day: 15, hour: 18, minute: 0 }, 'America/New_York').toISOString()).toBe(
      '2026-07-15T22:00:00.000Z',
    );
    expect(instantOf({ year: 2026, month: 7, day: 15, hour: 9, minute: 30 }, 'Asia/Kolkata').toISOString()).toBe(
      '2026-07-15T04:00:00.000Z',
    );
  });

  it('takes a time the spring change skips as the same time after it, and a repeated one as its first', () => {
    // 8 March 2026, 2:30 does not exist in New York (2:00 jumps to 3:00).
    expect(instantOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, 'America/New_York').toISOString()).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    // 1 November 2026, 1:30 happens twice: first in daylight time (UTC-4).
    expect(instantOf({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York').toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
  });

  it('keeps a weekly 6 pm at 6 pm local time across the change of the clocks', () => {
    const before = instantOf({ year: 2026, month: 10, day: 27, hour: 18, minute: 0 }, 'America/Chicago');
    const after = addLocalDays(before, 7, 'America/Chicago');
    expect(localTimeOf(after, 'America/Chicago')).toMatchObject({ year: 2026, month: 11, day: 3, hour: 18, minute: 0 });
    // One hour more than a week passed in UTC: the clocks went back.
    expect(after.getTime() - before.getTime()).toBe(7 * 24 * 3600_000 + 3600_000);
  });

  it('names the local day and formats in the zone', () => {
    const instant = new Date('2026-12-01T02:30:00Z');
    expect(localDateOf(instant, 'America/Los_Angeles')).toBe('2026-11-30');
    expect(localDateOf(instant, 'Europe/Paris')).toBe('2026-12-01');
    expect(formatInZone(instant, 'America/Los_Angeles')).toBe('Mon, Nov 30, 6:30 PM PST');
  });
});
