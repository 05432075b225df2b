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
