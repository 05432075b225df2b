import { describe, expect, it } from 'vitest';
import { calendarOf } from './ics.ts';

const event = {
  uid: 'coaching-1@realtypocket',
  sequence: 2,
  start: new Date('2026-12-01T23:00:00Z'),
  end: new Date('2026-12-02T00:00:00Z'),
  summary: 'Pricing, listings; and offers',
  description: 'Line one\nLine two, with a comma',
  url: 'https://realtypocket.example/coaching?session=1',
};

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
