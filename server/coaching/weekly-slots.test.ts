import { describe, expect, it } from 'vitest';
import { localTimeOf } from '../../common/time-zones.ts';
import { slotsFrom } from './coaching-admin.service.ts';

describe('weekly coaching slots', () => {
  it('keeps the local time of day across the change of the clocks', () => {
    // Monday 1 March 2027, 10:00 in Chicago (CST, UTC-6); the clocks go forward on 14 March.
    const first = new Date('2027-03-01T16:00:00Z');
    const slots = slotsFrom(first, { weekly: true, timeZone: 'America/Chicago', durationMinutes: 60 }, new Date('2027-03-29T23:00:00Z'));
    expect(slots.map((slot) => slot.plannedFor.toISOString())).toEqual([
      '2027-03-01T16:00:00.000Z',
      '2027-03-08T16:00:00.000Z',
      '2027-03-15T15:00:00.000Z',
      '2027-03-22T15:00:00.000Z',
      '2027-03-29T15:00:00.000Z',
    ]);
    for (const slot of slots) expect(localTimeOf(slot.plannedFor, 'America/Chicago')).toMatchObject({ hour: 10, minute: 0 });
  });

  it('makes one slot of a session that does not repeat', () => {
    const first = new Date('2027-03-01T16:00:00Z');
    expect(slotsFrom(first, { weekly: false, timeZone: 'UTC', durationMinutes: 45 }, new Date('2027-06-01T00:00:00Z'))).toEqual([
      { plannedFor: first, durationMinutes: 45 },
    ]);
  });
});
