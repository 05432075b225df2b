/** Captions (WebVTT) of a lesson's video: how large a file, how many cues, how many languages a lesson. */
export const CAPTIONS = {
  maxBytes: 512 * 1024,
  maxCues: 5000,
  maxLanguagesPerLesson: 5,
  /** What a transcript search answers at most, a page. */
  searchResults: 20,
} as const;
