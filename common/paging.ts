import { z } from 'zod';
import { cursorParam, searchParam } from './fields.ts';

// Lists travel a page at a time (docs/decisions/013). A page's answer names where the next starts.

/** One page of a list, and the cursor of the next (null on the last page). */
export interface Paged<T> {
  items: T[];
  next_cursor: string | null;
}

/** `?before=`: the next page of a list read newest first (or in any order that goes on "before"). */
export const BeforeQuery = z.object({ before: cursorParam().optional() });
export type BeforeQuery = z.infer<typeof BeforeQuery>;

/** `?after=`: the next page of a list read oldest first (a queue, a thread). */
export const AfterQuery = z.object({ after: cursorParam().optional() });
export type AfterQuery = z.infer<typeof AfterQuery>;

/** A staff list that can also be searched. */
export const SearchQuery = BeforeQuery.extend({ search: searchParam() });
export type SearchQuery = z.infer<typeof SearchQuery>;
