import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { calendarOf, type CalendarEvent } from './ics.ts';

const event = {
  uid: 'coaching-1@realtypocket',
  sequence: 2,
  start: new Date('2026-12-01T23:00:00Z'),
  end: new Date('2026-12-02T00:00:00Z'),
  summary: 'Pricing, listings; and offers',
  description: 'Line one\nLine two, with a comma',
  url: 'https://realtypocket.example/coaching?session=1',
};

/** The events a calendar app reads in the file (RFC 5545, through ical.js), with the properties each holds. */
function eventsIn(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).toBe('vcalendar');
  return calendar.getAllSubcomponents('vevent').map((vevent) => ({
    uid: vevent.getFirstPropertyValue('uid'),
    summary: vevent.getFirstPropertyValue('summary'),
    description: vevent.getFirstPropertyValue('description'),
    location: vevent.getFirstPropertyValue('location'),
    url: vevent.getFirstPropertyValue('url'),
    status: vevent.getFirstPropertyValue('status'),
    properties: vevent
      .getAllProperties()
      .map((property) => property.name)
      .sort(),
  }));
}

const PROPERTIES = ['description', 'dtend', 'dtstamp', 'dtstart', 'location', 'sequence', 'status', 'summary', 'uid', 'url'];

describe('calendar files', () => {
  it('writes one event in UTC, with its text escaped and lines ending in CRLF', () => {
    const text = calendarOf([event], { now: new Date('2026-11-24T12:00:00Z') });
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('DTSTART:20261201T230000Z');
    expect(lines).toContain('DTEND:20261202T000000Z');
    expect(lines).toContain('DTSTAMP:20261124T120000Z');
    expect(lines).toContain('SEQUENCE:2');
    expect(lines).toContain('SUMMARY:Pricing\\, listings\\; and offers');
    expect(lines).toContain('DESCRIPTION:Line one\\nLine two\\, with a comma');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });

  it('marks a cancelled session and names a subscribed feed', () => {
    const text = calendarOf([{ ...event, cancelled: true }], { name: 'Coaching' });
    expect(text).toContain('STATUS:CANCELLED');
    expect(text).toContain('X-WR-CALNAME:Coaching');
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const text = calendarOf([{ ...event, description: 'é'.repeat(100) }]);
    const folded = text.split('\r\n').filter((line) => line.startsWith('DESCRIPTION') || line.startsWith(' '));
    expect(folded.length).toBeGreaterThan(1);
    for (const line of folded) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(folded.map((line, index) => (index === 0 ? line : line.slice(1))).join('')).toBe(`DESCRIPTION:${'é'.repeat(100)}`);
  });
});

describe('calendar files hold what was typed, and nothing more', () => {
  // A member's words as an attacker types them: each line break would start a property of its own
  // (an ORGANIZER, an ATTENDEE, a second event) if it reached the file as it came.
  const injected =
    'Pricing\rORGANIZER:mailto:attacker@example.com\r\nATTENDEE:mailto:victim@example.com\nEND:VEVENT\rBEGIN:VEVENT\rUID:forged';
  const punctuation = 'Commas, semicolons; back\\slashes \\n and "quotes"';
  const long = `Négociation 🏡 ${'契約と価格、'.repeat(30)} ${'€'.repeat(40)} 👩‍💼 fin`;
  const booking: CalendarEvent = {
    uid: 'one-on-one-1@realtypocket',
    sequence: 0,
    start: new Date('2026-12-01T15:00:00Z'),
    end: new Date('2026-12-01T16:00:00Z'),
    summary: `1-on-1 coaching with ${injected}`,
    description: `To work on: ${injected}\n\n${punctuation}\n\n${long}`,
    url: 'https://realtypocket.example/coaching/one-on-one',
    location: `Room; 4, ${long}`,
  };
  /** What a calendar shows of a typed text: a CR, alone or before a LF, is a line break. */
  const asShown = (typed: string) => typed.replace(/\r\n?/g, '\n');

  it('keeps every character of the fields, escaped, in exactly the one event meant', () => {
    const text = calendarOf([booking], { now: new Date('2026-11-24T12:00:00Z') });
    expect(eventsIn(text)).toEqual([
      {
        uid: booking.uid,
        summary: asShown(booking.summary),
        description: asShown(booking.description),
        location: booking.location,
        url: booking.url,
        status: 'CONFIRMED',
        properties: PROPERTIES,
      },
    ]);
  });

  it('gives a reader that ends a line at any CR or LF (as some do) the same single event', () => {
    const text = calendarOf([booking]);
    // Every CR and LF of the file is a CRLF line end: none is left inside a line.
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const events = eventsIn(text.replace(/\r\n|\r|\n/g, '\r\n'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ uid: booking.uid, properties: PROPERTIES });
  });

  it('folds every line at 75 octets, never inside a character, and unfolds to the text', () => {
    const text = calendarOf([booking], { name: `Coaching ${long}` });
    const lines = text.split('\r\n');
    for (const line of lines) {
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
      // A split character would decode as U+FFFD.
      expect(Buffer.from(line, 'utf8').toString('utf8')).not.toContain('\uFFFD');
    }
    expect(lines.filter((line) => line.startsWith(' ')).length).toBeGreaterThan(5);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(`Coaching ${long}`);
  });

  it('drops control characters that a text cannot hold (NUL, ESC, DEL, C1), keeping tabs', () => {
    const text = calendarOf([{ ...booking, summary: 'A\u0000B\u001bC\u007fD\u0085E\u009bF\tG', uid: 'x\r\ny@realtypocket' }]);
    // eslint-disable-next-line no-control-regex -- no control character but CRLF and tabs may be left
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
    expect(eventsIn(text)[0]).toMatchObject({ summary: 'ABCDEF\tG', uid: 'x y@realtypocket' });
  });

  it('writes a feed of many events as exactly those events', () => {
    const many = [0, 1, 2].map((index) => ({
      ...booking,
      uid: `coaching-${index}@realtypocket`,
      summary: `Session ${index}\r${injected}`,
    }));
    const events = eventsIn(calendarOf(many, { name: 'Coaching' }));
    expect(events.map((each) => each.uid)).toEqual(['coaching-0@realtypocket', 'coaching-1@realtypocket', 'coaching-2@realtypocket']);
    expect(events.map((each) => each.summary)).toEqual(many.map((each) => asShown(each.summary)));
  });
});
