import { ONE_ON_ONE } from '../../common/limits.ts';
import { addDays, instantOf, localDateOf, weekdayOfDate } from '../../common/time-zones.ts';

// A coach's free 1-on-1 starts: their weekly open hours in their own zone, less breaks, days off,
// the notice they ask for and what is booked. Pure, so the rules are tested without a database.

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface CoachWeek {
  timeZone: string;
  slotMinutes: number;
  minNoticeHours: number;
  windows: { weekday: number; startsMinute: number; endsMinute: number; kind: 'open' | 'break' }[];
  /** Dates (YYYY-MM-DD, in the coach's zone) with no 1-on-1s. */
  daysOff: ReadonlySet<string>;
}

export interface TimeRange {
  startsAt: Date;
  endsAt: Date;
}

/** A weekday's open stretches in minutes of the day, with the breaks taken out. */
function openStretches(week: CoachWeek, weekday: number): [number, number][] {
  let stretches: [number, number][] = week.windows
    .filter((window) => window.weekday === weekday && window.kind === 'open')
    .map((window) => [window.startsMinute, window.endsMinute]);
  for (const pause of week.windows.filter((window) => window.weekday === weekday && window.kind === 'break')) {
    stretches = stretches.flatMap(([start, end]): [number, number][] =>
      pause.endsMinute <= start || pause.startsMinute >= end
        ? [[start, end]]
        : ([
            [start, pause.startsMinute],
            [pause.endsMinute, end],
          ].filter(([from, to]) => to! > from!) as [number, number][]),
    );
  }
  return stretches.sort((a, b) => a[0] - b[0]);
}

/** The coach's slot starts on one of their dates, by the week alone (nothing booked taken out). */
function slotsOfDay(week: CoachWeek, date: string): TimeRange[] {
  if (week.daysOff.has(date)) return [];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const slots: TimeRange[] = [];
  for (const [start, end] of openStretches(week, weekdayOfDate(date))) {
    for (let minute = start; minute + week.slotMinutes <= end; minute += week.slotMinutes) {
      const startsAt = instantOf({ year, month, day, hour: Math.floor(minute / 60), minute: minute % 60 }, week.timeZone);
      // A time the clocks skip lands on another day's wall clock: not a slot.
      if (localDateOf(startsAt, week.timeZone) !== date) continue;
      slots.push({ startsAt, endsAt: new Date(startsAt.getTime() + week.slotMinutes * MINUTE_MS) });
    }
  }
  return slots;
}

/**
 * The free slots starting in [from, until): bookable (after the coach's notice, within how far ahead
 * members book) and clear of every booked range.
 */
export function freeSlots(week: CoachWeek, booked: TimeRange[], from: Date, until: Date, now: Date): TimeRange[] {
  const earliest = Math.max(from.getTime(), now.getTime() + week.minNoticeHours * 60 * MINUTE_MS);
  const latest = Math.min(until.getTime(), now.getTime() + ONE_ON_ONE.bookAheadDays * DAY_MS);
  if (earliest >= latest) return [];
  const free: TimeRange[] = [];
  // A day either side: the coach's dates and the asked range's need not line up.
  const last = localDateOf(new Date(latest), week.timeZone);
  for (let date = addDays(localDateOf(new Date(earliest), week.timeZone), -1); date <= addDays(last, 1); date = addDays(date, 1)) {
    for (const slot of slotsOfDay(week, date)) {
      const start = slot.startsAt.getTime();
      if (start < earliest || start >= latest) continue;
      if (booked.some((taken) => taken.startsAt < slot.endsAt && taken.endsAt > slot.startsAt)) continue;
      free.push(slot);
    }
  }
  return free;
}

/** Whether this start is one of the coach's free slots now. */
export function isFreeSlot(week: CoachWeek, booked: TimeRange[], startsAt: Date, now: Date): TimeRange | null {
  const found = freeSlots(week, booked, startsAt, new Date(startsAt.getTime() + 1), now);
  return found[0]?.startsAt.getTime() === startsAt.getTime() ? found[0] : null;
}
