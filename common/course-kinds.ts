// SPEC 2 / 3: a course's category, level and status, apart from the contract's schemas, so a page
// that lists the categories (the catalogue's filters) loads no zod.
export const COURSE_CATEGORIES = ['sales', 'marketing', 'negotiation', 'specialization', 'business'] as const;
export const COURSE_LEVELS = ['beginner', 'intermediate', 'advanced'] as const;
/** Only published courses are in the catalogue; an archived one stays open to the members who took it. */
export const COURSE_STATUSES = ['draft', 'published', 'archived'] as const;
/** A video lesson (its video, or words to read), or a quiz (common/quizzes.contract.ts). */
export const LESSON_KINDS = ['video', 'quiz'] as const;
export type LessonKind = (typeof LESSON_KINDS)[number];
export const LESSON_KIND_LABEL: Record<LessonKind, string> = { video: 'Video lesson', quiz: 'Quiz' };

/** The languages a lesson's captions may be in (BCP 47 codes, as a <track>'s srclang), with their own names. */
export const CAPTION_LANGUAGES = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  pt: 'Português',
  zh: '中文',
  vi: 'Tiếng Việt',
  ko: '한국어',
  tl: 'Tagalog',
} as const;
export type CaptionLanguage = keyof typeof CAPTION_LANGUAGES;
export const CAPTION_LANGUAGE_CODES = Object.keys(CAPTION_LANGUAGES) as CaptionLanguage[];
