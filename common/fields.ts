import { z } from 'zod';
import { TEXT_MAX } from './limits.ts';

// Reusable field schemas with human messages, shared by forms, page actions and API routes.

/**
 * The one rule for text a person types (names, titles, topics, messages): no control character, be
 * it C0 (NUL, CR, ESC...), DEL or C1. Such text reaches calendar files, mail headers and CSV cells,
 * where a carriage return or line feed starts a new property, header or row, and PostgreSQL refuses
 * a NUL. A multi-line text (a message, a description) keeps its line breaks and tabs: a browser sends
 * a textarea's line breaks as CRLF, kept as LF; a CR on its own is refused like any other control.
 */
// eslint-disable-next-line no-control-regex -- the rule is about control characters
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** What a multi-line text keeps of them. */
const keptInLines = (char: string) => char === '\n' || char === '\t';

/** Whether a text may hold line breaks (and tabs): a message or a description, not a name or a title. */
export interface TextLines {
  multiline?: boolean;
}

/** CRLF as LF: how a multi-line text is kept, whatever sent it. */
export const normaliseLineBreaks = (value: string) => value.replace(/\r\n/g, '\n');

/** Why a text breaks the rule (a sentence naming the field), or null when it keeps it. */
export function textRefusal(label: string, value: string, { multiline = false }: TextLines = {}): string | null {
  const controls = (value.match(CONTROL) ?? []).filter((char) => !(multiline && keptInLines(char)));
  if (controls.length === 0) return null;
  if (!multiline && controls.some((char) => char === '\n' || char === '\r')) return `${label} must be a single line`;
  return `${label} must not contain control characters`;
}

/**
 * The same rule for text already stored or made by the site (written before the rule, or by another
 * way in), as a calendar file or a CSV cell writes it: multi-line, any CR becomes a line feed; on one
 * line, line breaks and tabs become spaces; every other control character is dropped.
 */
export function withoutControlCharacters(value: string, { multiline = false }: TextLines = {}): string {
  const breaksMarked = value.replace(/\r\n?/g, '\n');
  if (multiline) return breaksMarked.replace(CONTROL, (char) => (keptInLines(char) ? char : ''));
  return breaksMarked.replace(/[\n\t]/g, ' ').replace(CONTROL, '');
}

const typedText = (label: string, lines: TextLines, notText: string) =>
  z
    .string({ error: notText })
    .overwrite((value) => (lines.multiline ? normaliseLineBreaks(value) : value))
    .trim();

/** The rule as a zod check, for a text schema of its own (`.superRefine(textRule('Title'))`). */
export const textRule =
  (label: string, lines: TextLines = {}) =>
  (value: string, context: z.RefinementCtx) => {
    const refusal = textRefusal(label, value, lines);
    if (refusal) context.addIssue({ code: 'custom', message: refusal });
  };

/** Text a person typed: trimmed, required, at most `max` characters, one line unless `multiline`, no control characters. */
export const requiredText = (label: string, max: number, lines: TextLines = {}) =>
  typedText(label, lines, `${label} is required`)
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .superRefine(textRule(label, lines));

/** Text a person may leave empty: trimmed, at most `max` characters, one line unless `multiline`, no control characters. */
export const optionalText = (label: string, max: number, lines: TextLines = {}) =>
  typedText(label, lines, `${label} must be text`)
    .max(max, `${label} must be at most ${max} characters`)
    .superRefine(textRule(label, lines));

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
    .superRefine(textRule(name, {}));

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
