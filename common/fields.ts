import { z } from 'zod';
import { TEXT_MAX } from './limits.ts';

// Reusable field schemas with human messages, shared by forms, page actions and API routes.

// A NUL character can never be stored as text (PostgreSQL refuses it), so it is refused at the door.
const hasNoNul = (value: string) => !value.includes('\u0000');

/** Text a person typed: trimmed, required, at most `max` characters, no NUL. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(hasNoNul, `${label} must not contain control characters`);

/** Text a person may leave empty: trimmed, at most `max` characters, no NUL. */
export const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(hasNoNul, `${label} must not contain control characters`);

export const emailField = (label = 'Email') =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(TEXT_MAX.email, `${label} is too long`)
    .pipe(z.email('Please enter a valid email address'));

/** Ids the database creates (members, messages, files). */
export const uuidParam = (label: string) => z.uuid(`${label} must be a valid id`);

/** Ids chosen by people (courses, lessons, episodes): letters and digits joined by dashes or underscores. */
export const slugParam = (label: string) =>
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/, `${label} must be letters, digits, dashes or underscores (at most 100)`);

/** A query parameter given at most once, as text (a repeated parameter arrives as a list). */
export const singleQueryText = (name: string, max: number) =>
  z
    .string({ error: `Give ${name} once, as text` })
    .max(max, `${name} must be at most ${max} characters`)
    .refine(hasNoNul, `${name} must not contain control characters`);

export const SuccessResponse = z.object({ success: z.literal(true) });
export type SuccessResponse = z.infer<typeof SuccessResponse>;

export const ErrorResponse = z.object({ detail: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Where the next page of a list starts (`?before=` or `?after=`): the opaque cursor of a previous answer. */
export const cursorParam = () =>
  z
    .string({ error: 'Give the page link once' })
    .max(300, 'This page link is not valid')
    .regex(/^[A-Za-z0-9_-]+$/, 'This page link is not valid');

/** A search of a list: trimmed, at most `max` characters; empty means no search. */
export const searchParam = (max: number = TEXT_MAX.searchWords) =>
  singleQueryText('search', max)
    .transform((value) => value.trim())
    .optional();
