import { z } from 'zod';
import { CaptionsChoice, CaptionTracks, StaffCaptions, Transcript } from './captions.contract.ts';
export { Transcript, TranscriptQuery } from './captions.contract.ts';
import { optionalText, requiredText, singleQueryText, slugParam, uuidParam } from './fields.ts';
import { Tier } from './tiers.ts';
import type { BeforeQuery, Paged } from './paging.ts';
import type { Viewer } from './viewer.ts';
import { LESSON_ATTACHMENTS_MAX, LESSON_DRIP_MAX_DAYS, TEXT_MAX } from './limits.ts';
import {
  CAPTION_LANGUAGE_CODES,
  COURSE_CATEGORIES,
  COURSE_LEVELS,
  COURSE_STATUSES,
  LESSON_KINDS,
  type CaptionLanguage,
} from './course-kinds.ts';

// SPEC 2 / 3: the course catalogue and its lessons.
export { COURSE_CATEGORIES, COURSE_LEVELS, COURSE_STATUSES, LESSON_KINDS } from './course-kinds.ts';
const CourseCategory = z.enum(COURSE_CATEGORIES, { error: 'Category must be sales, marketing, negotiation, specialization or business' });
const CourseLevel = z.enum(COURSE_LEVELS, { error: 'Level must be beginner, intermediate or advanced' });
const CourseStatus = z.enum(COURSE_STATUSES, { error: 'Status must be draft, published or archived' });
export type CourseStatus = z.infer<typeof CourseStatus>;

export const COURSE_NOT_FOUND = 'Course not found';

/** SPEC 3 Course, as the API returns it. lesson_count is derived from the stored lessons. */
export const Course = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: CourseCategory,
  tier: Tier,
  thumbnail: z.string(),
  duration: z.string(),
  lesson_count: z.number().int(),
  instructor: z.string(),
  level: CourseLevel,
  /** SPEC 3 'Certificate included': finishing every lesson issues a certificate. */
  certificate: z.boolean(),
  /** Gold's early access: the course is Gold's (its tier) until `opens_at`, then opens to `opens_to`. */
  early_access: z.object({ opens_to: Tier, opens_at: z.string() }).nullable(),
  /** The course to complete before this one is started (a published one). */
  prerequisite: z.object({ id: z.string(), title: z.string() }).nullable(),
});
export type Course = z.infer<typeof Course>;
export const CourseList = z.array(Course);

/** SPEC 3 Lesson. video_url is only sent to an entitled member (null otherwise or when absent). */
export const Lesson = z.object({
  id: z.string(),
  title: z.string(),
  duration: z.string(),
  description: z.string(),
  video_url: z.string().nullable(),
  /** A video lesson (its video, or words to read), or a quiz, which the member completes by passing it. */
  kind: z.enum(LESSON_KINDS),
  /** true when the lesson has a video, whether or not this client may see it */
  has_video: z.boolean(),
  /** A free preview: its video is open to everyone, members of any tier and visitors. */
  free_preview: z.boolean(),
  /** Files from the library that go with the lesson; url is null for a viewer who may not open them. */
  attachments: z.array(z.object({ name: z.string(), url: z.string().nullable() })),
  /** The video's captions: each language's file (a <track>), null for a viewer who may not watch it. */
  captions: CaptionTracks,
  /**
   * A dripped lesson not open to the viewer yet: when it opens (midnight, the member's time), or, until
   * they start the course, how many days after the start; null once it is open.
   */
  opens: z.object({ at: z.string().nullable(), days_after_start: z.number().int().nullable() }).nullable(),
});
export type Lesson = z.infer<typeof Lesson>;
export const LessonList = z.array(Lesson);

/** A lesson as the opening rules read it: its course, whether it is a free preview, and its drip. */
export interface LessonPlace {
  /** The lesson's id (staff may open one lesson early to a member). */
  id: string;
  courseId: string;
  freePreview: boolean;
  opensAfterDays: number | null;
  opensOn: string | null;
}

export const TranscriptSearchQuery = z.object({
  q: singleQueryText('q', TEXT_MAX.searchWords).pipe(z.string().min(1, 'Say what to look for')),
});

/** What the transcripts say of the words searched: each lesson's moments, or only that it is locked. */
export const TranscriptMatches = z.array(
  z.object({
    course_id: z.string(),
    course_title: z.string(),
    lesson_id: z.string(),
    lesson_title: z.string(),
    /** The lesson is above the viewer's plan: it is named, its words are not shown. */
    locked: z.boolean(),
    moments: z.array(z.object({ start: z.number(), text: z.string() })),
  }),
);
export type TranscriptMatches = z.infer<typeof TranscriptMatches>;

export const CourseParams = z.object({ id: slugParam('Course id') });
/** A recording's captions: its session's id and a language. */
export const RecordingCaptionsParams = z.object({
  id: uuidParam('Session'),
  language: z.enum(CAPTION_LANGUAGE_CODES, { error: `Captions are in one of: ${CAPTION_LANGUAGE_CODES.join(', ')}` }),
});
export const CaptionsParams = z.object({
  id: slugParam('Lesson id'),
  language: z.enum(CAPTION_LANGUAGE_CODES, { error: `Captions are in one of: ${CAPTION_LANGUAGE_CODES.join(', ')}` }),
});
export const LessonParams = z.object({ id: slugParam('Lesson id') });

export interface CoursesService {
  /** The catalogue: published courses. */
  list(): Promise<Course[]>;
  /**
   * The course if this viewer may see it (published; archived ones to the members enrolled in
   * them; drafts to staff), or null.
   */
  find(viewer: Viewer, courseId: string): Promise<Course | null>;
  /** The course, or a 404. */
  get(viewer: Viewer, courseId: string): Promise<Course>;
  /** The course's lessons in order; video links only for a member whose tier reaches the course's. */
  lessons(viewer: Viewer, courseId: string): Promise<Lesson[]>;
  /** The course this one builds on, while the viewer has not met it (see `meetsPrerequisite`); null once they may study it. */
  unmetPrerequisite(viewer: Viewer, courseId: string): Promise<{ id: string; title: string } | null>;
  /** Why a lesson is not open to the viewer yet (its course's prerequisite, its drip), or null once it is. */
  lessonRefusal(viewer: Viewer, lesson: LessonPlace): Promise<string | null>;
  /** A lesson video's transcript in one language, for whom the video opens. */
  transcript(viewer: Viewer, lessonId: string, language: CaptionLanguage): Promise<Transcript>;
  /** Where the course's transcripts say these words: the moments of the lessons the viewer may watch, the others named as locked. */
  searchTranscripts(viewer: Viewer, courseId: string, words: string): Promise<TranscriptMatches>;
  /** The same over every published course, best matches first: a page for the catalogue's and the Help Center's search. */
  searchAllTranscripts(viewer: Viewer, words: string): Promise<TranscriptMatches>;
}

// Staff authoring (issue: 'Staff run the catalogue').
const videoUrl = optionalText('Video URL', TEXT_MAX.link).refine(
  (value) => value === '' || /^https:\/\/[^\s]+$/.test(value),
  'Video URL must start with https://',
);

const courseFields = {
  title: requiredText('Title', TEXT_MAX.courseTitle),
  description: requiredText('Description', TEXT_MAX.courseDescription, { multiline: true }),
  category: CourseCategory,
  tier: Tier,
  instructor: requiredText('Instructor', TEXT_MAX.instructor),
  level: CourseLevel,
  duration: requiredText('Duration', TEXT_MAX.duration),
  certificate: z.boolean({ error: 'Certificate must be true or false' }),
  /** The certificate states the member's quiz score (their best passing try of each quiz, averaged). */
  certificate_shows_score: z.boolean({ error: 'Whether the certificate shows the score must be true or false' }),
  /** A public image from the file library; null for the generated artwork. */
  thumbnail_file_id: uuidParam('Thumbnail').nullable(),
  /**
   * Gold's early access: the course opens to Gold members now and to its own tier on this date (at
   * midnight in the business's time zone); null for none.
   */
  early_access_until: z.iso.date('Early access must end on a date (YYYY-MM-DD)').nullable(),
  /** A course to complete before this one is started; null for none. */
  prerequisite_course_id: slugParam('Prerequisite').nullable(),
};
export const CourseInput = z.object({
  ...courseFields,
  level: courseFields.level.default('beginner'),
  certificate: courseFields.certificate.default(true),
  certificate_shows_score: courseFields.certificate_shows_score.default(false),
  thumbnail_file_id: courseFields.thumbnail_file_id.default(null),
  early_access_until: courseFields.early_access_until.default(null),
  prerequisite_course_id: courseFields.prerequisite_course_id.default(null),
});
export type CourseInput = z.infer<typeof CourseInput>;
/** Only the fields given change. */
export const CourseUpdate = z.object(courseFields).partial();
export type CourseUpdate = z.infer<typeof CourseUpdate>;
export const CourseStatusInput = z.object({ status: CourseStatus });

export const LessonInput = z
  .object({
    /** Chosen when the lesson is added: a quiz's questions are then written apart (PUT .../quiz). */
    kind: z.enum(LESSON_KINDS, { error: 'A lesson is a video lesson or a quiz' }).default('video'),
    title: requiredText('Title', TEXT_MAX.courseTitle),
    duration: requiredText('Duration', TEXT_MAX.duration),
    description: optionalText('Description', TEXT_MAX.lessonDescription, { multiline: true }).default(''),
    free_preview: z.boolean({ error: 'Free preview must be true or false' }).default(false),
    /** An outside video (YouTube, Vimeo...): the site cannot protect it. */
    video_url: videoUrl.default(''),
    /** A video from the file library, served only to entitled members. */
    video_file_id: uuidParam('Video').nullable().default(null),
    attachment_file_ids: z
      .array(uuidParam('Attachment'))
      .max(LESSON_ATTACHMENTS_MAX, `A lesson can have at most ${LESSON_ATTACHMENTS_MAX} attachments`)
      .refine((ids) => new Set(ids).size === ids.length, 'Choose each attachment once')
      .default([]),
    /** The video's captions: a WebVTT file from the library per language. */
    captions: CaptionsChoice.default([]),
    /** Drip: the lesson opens this many days after the member starts the course (midnight, their time)... */
    opens_after_days: z
      .number({ error: 'Days after the start must be a whole number' })
      .int('Days after the start must be a whole number')
      .min(1, 'A lesson opens at least 1 day after the start')
      .max(LESSON_DRIP_MAX_DAYS, `A lesson opens at most ${LESSON_DRIP_MAX_DAYS} days after the start`)
      .nullable()
      .default(null),
    /** ...or on this date (midnight, the member's time); neither: with the course. */
    opens_on: z.iso.date('The opening date must be a date (YYYY-MM-DD)').nullable().default(null),
  })
  .refine((lesson) => lesson.opens_after_days === null || lesson.opens_on === null, {
    message: 'A lesson opens a number of days after the start or on a date, not both',
    path: ['opens_on'],
  })
  .refine((lesson) => !(lesson.video_url && lesson.video_file_id), {
    message: 'Choose an uploaded video or a video URL, not both',
    path: ['video_url'],
  })
  .refine(
    (lesson) => lesson.kind === 'video' || (!lesson.video_url && !lesson.video_file_id && !lesson.free_preview && !lesson.captions.length),
    {
      message: 'A quiz has no video and is no free preview',
      path: ['kind'],
    },
  );
export type LessonInput = z.infer<typeof LessonInput>;
export const LessonOrderInput = z.object({
  lesson_ids: z
    .array(slugParam('Lesson id'), { error: 'lesson_ids must be a list of lesson ids' })
    .min(1, 'Give the lessons in their new order'),
});

export const StaffCourse = Course.extend({
  status: CourseStatus,
  certificate_shows_score: z.boolean(),
  thumbnail_file_id: z.string().nullable(),
  /** The course this one builds on, published or not (members see it while it is published). */
  prerequisite_course_id: z.string().nullable(),
  enrolled_count: z.number().int(),
  completed_count: z.number().int(),
  /** The enrolled members' average share of lessons done, 0 to 100. */
  average_progress: z.number().int(),
  created_at: z.string(),
});
export type StaffCourse = z.infer<typeof StaffCourse>;
export const StaffCourseList = z.array(StaffCourse);
export const StaffLesson = z.object({
  id: z.string(),
  kind: z.enum(LESSON_KINDS),
  title: z.string(),
  duration: z.string(),
  description: z.string(),
  free_preview: z.boolean(),
  video_url: z.string(),
  video_file_id: z.string().nullable(),
  attachments: z.array(z.object({ id: z.string(), name: z.string() })),
  captions: StaffCaptions,
  opens_after_days: z.number().int().nullable(),
  opens_on: z.string().nullable(),
});
export type StaffLesson = z.infer<typeof StaffLesson>;
export const StaffCourseDetail = z.object({ course: StaffCourse, lessons: z.array(StaffLesson) });
export type StaffCourseDetail = z.infer<typeof StaffCourseDetail>;

export interface CourseAuthoringService {
  /** Every course, whatever its status, a page at a time in catalogue order (`?before=` the last shown). */
  list(viewer: Viewer, query?: BeforeQuery): Promise<Paged<StaffCourse>>;
  get(viewer: Viewer, courseId: string): Promise<StaffCourseDetail>;
  /** A new course, as a draft. */
  create(viewer: Viewer, input: CourseInput): Promise<StaffCourseDetail>;
  update(viewer: Viewer, courseId: string, input: CourseUpdate): Promise<StaffCourseDetail>;
  setStatus(viewer: Viewer, courseId: string, status: CourseStatus): Promise<StaffCourseDetail>;
  /** Deletes a course no one has enrolled in; one with enrolments is refused (archive it instead). */
  remove(viewer: Viewer, courseId: string): Promise<void>;
  addLesson(viewer: Viewer, courseId: string, input: LessonInput): Promise<StaffCourseDetail>;
  updateLesson(viewer: Viewer, lessonId: string, input: LessonInput): Promise<StaffCourseDetail>;
  removeLesson(viewer: Viewer, lessonId: string): Promise<StaffCourseDetail>;
  reorderLessons(viewer: Viewer, courseId: string, lessonIds: string[]): Promise<StaffCourseDetail>;
}
