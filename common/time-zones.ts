import { z } from 'zod';

// Times are stored in UTC and shown in the member's time zone (an IANA name such as
// 'America/Chicago'). The arithmetic goes through Intl, which knows every zone's daylight-saving
// rules, so "every Tuesday at 6 pm" stays at 6 pm local time across the change.

/** Where a member whose browser told us nothing is shown times: the business's own zone. */
export const DEFAULT_TIME_ZONE = 'America/New_York';

const zoneCache = new Map<string, boolean>();

/** Whether this is a time zone Intl knows (an IANA name, or UTC). */
export function isTimeZone(zone: string): boolean {
  const known = zoneCache.get(zone);
  if (known !== undefined) return known;
  let valid = zone.length > 0 && zone.length <= 64;
  if (valid) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      valid = false;
    }
  }
  if (zoneCache.size < 1000) zoneCache.set(zone, valid);
  return valid;
}

export const TimeZone = z
  .string({ error: 'Choose a time zone' })
  .trim()
  .refine(isTimeZone, 'Choose a time zone from the list, such as America/Chicago');

/** A wall-clock time in some zone: what a person reads on the clock there. */
export interface LocalTime {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = partsFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    if (partsFormatters.size < 1000) partsFormatters.set(zone, formatter);
  }
  return formatter;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall-clock time of an instant in a zone, with its weekday (0 Sunday to 6 Saturday). */
export function localTimeOf(instant: Date, zone: string): LocalTime & { weekday: number; second: number } {
  const parts: Record<string, string> = {};
  for (const part of partsFormatter(zone).formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? 'Sun'),
  };
}

/** How far the zone's clock is ahead of UTC at this instant, in milliseconds. */
function offsetAt(instant: Date, zone: string): number {
  const local = localTimeOf(instant, zone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant at which the zone's clock shows this time. A time skipped by a daylight-saving change
 * (2:30 on the spring-forward night) is taken as the same time after the change; a time that
 * happens twice (the fall-back hour) as its first occurrence.
 */
export function instantOf(local: LocalTime, zone: string): Date {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const first = asUtc - offsetAt(new Date(asUtc), zone);
  const second = asUtc - offsetAt(new Date(first), zone);
  if (first === second) return new Date(first);
  // Near a change the two guesses differ: keep the earlier one that shows the wanted time, else the later.
  const [early, late] = first < second ? [first, second] : [second, first];
  const shown = localTimeOf(new Date(early), zone);
  return new Date(shown.hour === local.hour && shown.minute === local.minute ? early : late);
}

/** The date `days` after a YYYY-MM-DD date (a calendar date, no zone). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The weekday of a YYYY-MM-DD date, 0 Sunday to 6 Saturday. */
export const weekdayOfDate = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The same wall-clock time a number of days later in the zone (a week later is still 6 pm there). */
export function addLocalDays(instant: Date, days: number, zone: string): Date {
  const local = localTimeOf(instant, zone);
  return instantOf({ ...local, day: local.day + days }, zone);
}

/** The start of the calendar day that holds this instant, in the zone, as 'YYYY-MM-DD'. */
export function localDateOf(instant: Date, zone: string): string {
  const { year, month, day } = localTimeOf(instant, zone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 'Tue, Dec 1, 6:00 PM' in the zone, with the zone's short name ('EST') when asked. */
export function formatInZone(instant: Date | string, zone: string, withZone = true): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(withZone && { timeZoneName: 'short' }),
  }).format(typeof instant === 'string' ? new Date(instant) : instant);
}

/** '6:00 PM' in the zone. */
export function formatClockInZone(instant: Date | string, zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(
    typeof instant === 'string' ? new Date(instant) : instant,
  );
}

/** 'Tuesday, December 1' in the zone: the day something opens there. */
export function formatDateInZone(instant: Date | string, zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long', month: 'long', day: 'numeric' }).format(
    typeof instant === 'string' ? new Date(instant) : instant,
  );
}
