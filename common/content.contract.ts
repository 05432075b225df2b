import { z } from 'zod';
import { badRequest } from './errors.ts';
import { CONTENT_SECTIONS, isMultilineField, type ContentData, type ContentSectionKey } from './content-sections.ts';
import { normaliseLineBreaks, textRefusal } from './fields.ts';
import type { Viewer } from './viewer.ts';
import { TEXT_MAX } from './limits.ts';

// SPEC 3 / 7: editable content, one object of text fields per section.

export const SectionParams = z.object({
  section: z.string().regex(/^[a-z0-9_]{1,64}$/, 'A content section is named with lowercase letters, digits and underscores'),
});

/** `{data: {...}}`: the stored fields, an empty object when the section was never saved. */
export const ContentResponse = z.object({ data: z.record(z.string(), z.string()) });
export type ContentResponse = z.infer<typeof ContentResponse>;

/** The body of a save: an object of field names and texts, checked field by field below. */
export const ContentSectionBody = z.record(z.string(), z.unknown(), { error: 'Send the section as an object of field names and texts.' });

export const sectionNotFound = (section: string) => `There is no content section called "${section}".`;

/**
 * A whole section as staff save it (SPEC 7: the body is the whole section object): only the
 * section's own fields, each plain text within the cap, and every one of them, so a save can never
 * store part of a section over the rest.
 */
export function parseContentSection(section: ContentSectionKey, body: unknown): ContentData {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('Send the section as an object of field names and texts.');
  const fields: readonly string[] = CONTENT_SECTIONS[section].fields;
  const data: ContentData = {};
  for (const [field, value] of Object.entries(body)) {
    if (!fields.includes(field)) throw badRequest(`"${field}" is not a field of ${section}. Its fields are: ${fields.join(', ')}.`, field);
    if (typeof value !== 'string') throw badRequest(`The value of "${field}" must be text.`, field);
    if (value.length > TEXT_MAX.siteText)
      throw badRequest(`The value of "${field}" must be at most ${TEXT_MAX.siteText} characters.`, field);
    // The one text rule of common/fields.ts: line breaks only in the multi-line fields.
    const multiline = isMultilineField(field);
    const text = multiline ? normaliseLineBreaks(value) : value;
    const refusal = textRefusal(`The value of "${field}"`, text, { multiline });
    if (refusal) throw badRequest(`${refusal}.`, field);
    data[field] = text;
  }
  const missing = fields.filter((field) => !(field in data));
  if (missing.length > 0) {
    throw badRequest(
      `The section ${section} is missing ${missing.map((field) => `"${field}"`).join(', ')}. Send every field of the section: ${fields.join(', ')}.`,
    );
  }
  return data;
}

/** An in-place edit (SPEC 4): one field of one section, typed on the page itself. */
export const InPlaceEditInput = z.object({
  section: SectionParams.shape.section,
  field: z.string().regex(/^[a-z0-9_]{1,64}$/, 'A field is named with lowercase letters, digits and underscores'),
  value: z.string().max(TEXT_MAX.siteText, `A text may be at most ${TEXT_MAX.siteText} characters`),
});
export type InPlaceEditInput = z.infer<typeof InPlaceEditInput>;

export interface ContentService {
  /** The stored fields of a section (empty when never saved); 404 for a section that does not exist. */
  get(section: string): Promise<ContentData>;
  /** Staff only: replaces the whole section and records the change in the audit log. */
  save(viewer: Viewer, section: string, body: unknown): Promise<void>;
  /**
   * Staff only: SPEC 7's in-place edit, the section as the page showed it (stored texts, defaults
   * where none is stored) with one field replaced, saved like any other save.
   */
  saveField(viewer: Viewer, edit: InPlaceEditInput): Promise<void>;
}
