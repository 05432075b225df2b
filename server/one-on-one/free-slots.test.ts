import { describe, expect, it } from 'vitest';
import { freeSlots, type CoachWeek } from './free-slots.ts';

// A coach's free starts: open hours less breaks, days off, notice and what is booked.

const week = (changes: Partial<CoachWeek> = {}): CoachWeek => ({
  timeZone: 'America/Chicago',
  slotMinutes: 60,
  minNoticeHours: 0,
  windows: [
    { weekday: 1, startsMinute: 9 * 60, endsMinute: 13 * 60, kind: 'open' },
    { weekday: 1, startsMinute: 11 * 60, endsMinute: 12 * 60, kind: 'break' },
  ],
  daysOff: new Set(),
  ...changes,
});
const at = (iso: string) => new Date(iso);
const starts = (slots: { startsAt: Date }[]) => slots.map((slot) => slot.startsAt.toISOString());

describe('free 1-on-1 slots', () => {
  // Monday 1 March 2027 in Chicago is UTC-6; Monday 15 March, after the clocks change, UTC-5.
  const now = at('2027-02-27T00:00:00Z');

  it('cuts the open hours into slots, less the break, at the same local time across the change of the clocks', () => {
    expect(starts(freeSlots(week(), [], at('2027-03-01T00:00:00Z'), at('2027-03-02T00:00:00Z'), now))).toEqual([
      '2027-03-01T15:00:00.000Z',
      '2027-03-01T16:00:00.000Z',
      '2027-03-01T18:00:00.000Z',
    ]);
    expect(starts(freeSlots(week(), [], at('2027-03-15T00:00:00Z'), at('2027-03-16T00:00:00Z'), now))).toEqual([
      '2027-03-15T14:00:00.000Z',
      '2027-03-15T15:00:00.000Z',
      '2027-03-15T17:00:00.000Z',
    ]);
  });

  it('leaves out days off, booked times and anything inside the coach’s notice', () => {
    const range = [at('2027-03-01T00:00:00Z'), at('2027-03-09T00:00:00Z')] as const;
    const booked = [{ startsAt: at('2027-03-01T15:30:00Z'), endsAt: at('2027-03-01T16:30:00Z') }];
    expect(starts(freeSlots(week(), booked, ...range, now))).toEqual([
      '2027-03-01T18:00:00.000Z',
      '2027-03-08T15:00:00.000Z',
      '2027-03-08T16:00:00.000Z',
      '2027-03-08T18:00:00.000Z',
    ]);
    expect(starts(freeSlots(week({ daysOff: new Set(['2027-03-01']) }), [], ...range, now))).toHaveLength(3);
    // 48 hours' notice from Monday 1 March, 16:30 UTC: the next Monday only.
    expect(starts(freeSlots(week({ minNoticeHours: 48 }), [], ...range, at('2027-03-01T16:30:00Z')))).toHaveLength(3);
  });
});
