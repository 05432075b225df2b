import { BRAND_NAME } from '../../common/brand.ts';
import { withoutControlCharacters } from '../../common/fields.ts';

// iCalendar (RFC 5545) for sessions, bookings and events: one event per file for 'Add to calendar',
// many in a member's private feed. Times are written in UTC, so every calendar shows them in its own zone.

export interface CalendarEvent {
  /** Stable across changes, so a calendar replaces its copy rather than adding another. */
  uid: string;
  /** Raised at each change of time or status. */
  sequence: number;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  /** Where to go: the page of the session on the site. */
  url: string;
  location?: string;
  cancelled?: boolean;
}

/** 20261124T180000Z */
const stamp = (date: Date) => `${date.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;

/**
 * Text as a property value (RFC 5545 3.3.11): backslashes, semicolons, commas and line breaks escaped,
 * any CR among them (a bare CR ends a line for some calendar apps, which would read the rest as a
 * property of its own); other control characters, which TEXT cannot hold, dropped by the site's one
 * text rule (common/fields.ts). Input refuses them already: this keeps stored text safe too.
 */
const escapeText = (text: string) =>
  withoutControlCharacters(text, { multiline: true })
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\n/g, '\\n');

/** A value that is not text (an address, an id): on one line, without control characters. */
const plainValue = (value: string) => withoutControlCharacters(value);

/** Lines longer than 75 octets continue on the next line after a space (never inside a UTF-8 character). */
function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Step back to the start of a character.
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74; // the leading space counts
  }
  return parts.join('\r\n ');
}

function eventLines(event: CalendarEvent, now: Date): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${plainValue(event.uid)}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${stamp(now)}`,
    `DTSTART:${stamp(event.start)}`,
    `DTEND:${stamp(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `URL:${plainValue(event.url)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    `STATUS:${event.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
  ];
}

/** A calendar file of these events; `name` titles a subscribed feed. */
export function calendarOf(events: CalendarEvent[], options: { name?: string; now?: Date } = {}): string {
  const now = options.now ?? new Date();
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${BRAND_NAME}//Coaching//EN`,
    'CALSCALE:GREGORIAN',
    `METHOD:PUBLISH`,
    ...(options.name ? [`X-WR-CALNAME:${escapeText(options.name)}`, 'REFRESH-INTERVAL;VALUE=DURATION:PT1H'] : []),
    ...events.flatMap((event) => eventLines(event, now)),
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
