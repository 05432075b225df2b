import { z } from 'zod';
import { slugParam } from './fields.ts';
import { Tier } from './tiers.ts';
import type { Viewer } from './viewer.ts';

// SPEC 2 / 3: the course catalogue and its lessons.
export const COURSE_CATEGORIES = ['sales', 'marketing', 'negotiation', 'specialization', 'business'] as const;
const CourseCategory = z.enum(COURSE_CATEGORIES);

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
  /** true when the lesson has a video, whether or not this client may see it */
  has_video: z.boolean(),
});
export type Lesson = z.infer<typeof Lesson>;
export const LessonList = z.array(Lesson);

export const CourseParams = z.object({ id: slugParam('Course id') });
export const LessonParams = z.object({ id: slugParam('Lesson id') });

export interface CoursesService {
  list(): Promise<Course[]>;
  /** The course, or null when there is none with this id. */
  find(courseId: string): Promise<Course | null>;
  /** The course, or a 404. */
  get(courseId: string): Promise<Course>;
  /** The course's lessons in order; video links only for a member whose tier reaches the course's. */
  lessons(viewer: Viewer, courseId: string): Promise<Lesson[]>;
}
