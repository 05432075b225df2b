import { describe, expect, it } from 'vitest';
import { loggablePath, REDACTED } from './request-log.ts';

const KEY = 'Zk3q_L9vT2xYb8WcN4mR7pQs1dF6gH0jKaE5uIoPyMw';
const FEED = `/api/coaching/calendar/${REDACTED}`;

describe('paths in the log', () => {
  it('keep an ordinary path as it came, without its query string', () => {
    expect(loggablePath('/api/courses?token=query-secret')).toBe('/api/courses');
    expect(loggablePath('/api/coaching/sessions/0f1e2d3c-4b5a-4968-8776-655443322110/calendar.ics')).toBe(
      '/api/coaching/sessions/0f1e2d3c-4b5a-4968-8776-655443322110/calendar.ics',
    );
    expect(loggablePath('/api/coaching/calendar-feed')).toBe('/api/coaching/calendar-feed');
    expect(loggablePath('/unsubscribe?token=abc')).toBe('/unsubscribe');
  });

  it.each([
    `/api/coaching/calendar/${KEY}.ics`,
    `/api/coaching/calendar/${KEY}`,
    `/api/coaching/calendar/${KEY}.ics?refresh=1`,
    `/api/coaching/calendar/${KEY}/`,
    `/api/coaching/calendar/${KEY}/more/segments`,
    `/api/coaching/calendar//${KEY}.ics`,
    `//api//coaching/calendar/${KEY}`,
    `/API/Coaching/Calendar/${KEY}`,
    `/api/coaching/%63alendar/${KEY}`,
    `/api/coaching/calendar%2F${KEY}`,
    `/api/coaching/calendar%252F${KEY}`,
    `/api/coaching/./calendar/${KEY}`,
    `/api/courses/../coaching/calendar/${KEY}`,
    `/api\\coaching\\calendar\\${KEY}`,
    `/api/coaching/calendar/${KEY}%ZZ`,
  ])('hide the key of a calendar feed however its path is written: %s', (url) => {
    const logged = loggablePath(url);
    expect(logged).toBe(FEED);
    expect(logged.toLowerCase()).not.toContain(KEY.toLowerCase().slice(0, 8));
  });
});
