import { buffer } from 'node:stream/consumers';
import { CAPTION_LANGUAGES, type CaptionLanguage } from '../../common/course-kinds.ts';
import { badRequest } from '../../common/errors.ts';
import { CAPTIONS } from '../../common/limits.ts';
import { parseWebVtt } from '../../common/webvtt.ts';
import type { DataAccess } from '../repositories.ts';
import type { FileStorage } from './storage.ts';

/** A video's captions as stored: the language, the library's file, its cues and their words (the transcript). */
export interface StoredCaptions {
  language: CaptionLanguage;
  fileId: string;
  cues: { start: number; end: number; text: string }[];
  transcript: string;
}

/**
 * The captions staff chose for a video (a lesson's, a recording's), each read from its WebVTT file in
 * the library: refused when a file is not WebVTT or no longer reads as such.
 */
export async function readCaptions(
  data: Pick<DataAccess, 'courses'>,
  storage: Pick<FileStorage, 'get'>,
  chosen: { language: CaptionLanguage; file_id: string }[],
): Promise<StoredCaptions[]> {
  if (chosen.length === 0) return [];
  const files = await data.courses.filesByIds(chosen.map((each) => each.file_id));
  return Promise.all(
    chosen.map(async (each) => {
      const file = files.find((candidate) => candidate.id === each.file_id);
      if (!file || !file.contentType.startsWith('text/vtt'))
        throw badRequest('Captions are a WebVTT (.vtt) file from the file library.', 'captions');
      const stream = await storage.get(file.storageKey);
      if (!stream) throw badRequest(`The captions file ${file.filename} is missing from the file store.`, 'captions');
      const parsed = parseWebVtt((await buffer(stream)).toString('utf8'), CAPTIONS.maxCues);
      if (!parsed.ok) throw badRequest(`The captions in ${CAPTION_LANGUAGES[each.language]}: ${parsed.error}.`, 'captions');
      return { language: each.language, fileId: file.id, cues: parsed.cues, transcript: parsed.cues.map((cue) => cue.text).join('\n') };
    }),
  );
}
