import { z } from 'zod';
import { badRequest } from '../../common/errors.ts';
import type { Paged } from '../../common/paging.ts';

// Every list is read a page at a time in the order of an index, and the next page starts after
// the last row shown (keyset paging: `(created_at, id) < ($1, $2)`), never at an offset: page 5,000
// costs what page 1 costs (docs/decisions/013). A cursor is that last row's sort key, opaque to clients.

export const INVALID_CURSOR = 'This page link is not valid (it may be out of date). Start again from the first page.';

/** The cursor text of a row's sort key: base64url of its values, in order. */
export function encodeCursor(values: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The sort key in a cursor, checked against the list's shape; a 400 for anything else. */
export function decodeCursor<S extends z.ZodType>(cursor: string, shape: S): z.output<S> {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID_CURSOR);
  }
  const parsed = shape.safeParse(values);
  if (!parsed.success) throw badRequest(INVALID_CURSOR);
  return parsed.data;
}

const TIMESTAMP_TEXT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** Whether the text names a real moment (no month 13, no 25 o'clock), before PostgreSQL is asked. */
function isRealMoment(text: string): boolean {
  const parts = TIMESTAMP_TEXT.exec(text);
  if (!parts) return false;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
}

/** A timestamp as PostgreSQL wrote it (`created_at::text`): microseconds kept, which a Date would round away. */
export const TimestampKey = z.string().refine(isRealMoment);

/** A count in a key (likes, replies): what an integer column holds. */
export const CountKey = z.number().int().min(0).max(2_147_483_647);

/**
 * Cuts a page from rows read with one row more than the page holds: that extra row only tells
 * whether another page follows; the cursor is the key of the last row shown.
 */
export function pageOf<R, T>(rows: R[], size: number, keyOf: (row: R) => readonly (string | number)[], view: (row: R) => T): Paged<T> {
  const shown = rows.slice(0, size);
  const last = shown.at(-1);
  return { items: shown.map(view), next_cursor: rows.length > size && last ? encodeCursor(keyOf(last)) : null };
}
