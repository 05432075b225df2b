import { z } from 'zod';
import { CAPTION_LANGUAGE_CODES } from './course-kinds.ts';
import { CAPTIONS } from './caption-limits.ts';
import { uuidParam } from './fields.ts';

// A video's captions (a lesson's, a coaching session's recording's): WebVTT files of the library,
// one per language, read by the player as <track>s and shown as the transcript.

/** A video's captions as staff choose them (a lesson's, a recording's): a WebVTT file from the library per language. */
export const CaptionsChoice = z
  .array(
    z.object({
      file_id: uuidParam('Captions'),
      language: z.enum(CAPTION_LANGUAGE_CODES, { error: `Captions are in one of: ${CAPTION_LANGUAGE_CODES.join(', ')}` }),
    }),
  )
  .max(CAPTIONS.maxLanguagesPerLesson, `A video can have captions in at most ${CAPTIONS.maxLanguagesPerLesson} languages`)
  .refine((captions) => new Set(captions.map((each) => each.language)).size === captions.length, 'Give each language its captions once');

/** A video's captions as a member's player reads them: each language's file (a <track>), null for a viewer who may not watch it. */
export const CaptionTracks = z.array(z.object({ language: z.enum(CAPTION_LANGUAGE_CODES), label: z.string(), url: z.string().nullable() }));

/** A video's captions as staff see them: each language's file in the library. */
export const StaffCaptions = z.array(z.object({ language: z.enum(CAPTION_LANGUAGE_CODES), file_id: z.string(), name: z.string() }));

/** A video's transcript in one language: its cues, each a place in the video to go to. */
export const Transcript = z.object({
  language: z.enum(CAPTION_LANGUAGE_CODES),
  cues: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })),
});
export type Transcript = z.infer<typeof Transcript>;
export const TranscriptQuery = z.object({ language: z.enum(CAPTION_LANGUAGE_CODES).default('en') });
