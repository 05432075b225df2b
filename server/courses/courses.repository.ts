import { asc, count, eq } from 'drizzle-orm';
import type { Course } from '../../common/courses.contract.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { courses, lessons } from '../../db/schema.ts';

const courseColumns = {
  id: courses.id,
  title: courses.title,
  description: courses.description,
  category: courses.category,
  tier: courses.tier,
  thumbnail: courses.thumbnail,
  duration: courses.duration,
  instructor: courses.instructor,
  lesson_count: count(lessons.id),
};

export function createCoursesRepository(db: DatabaseOrTransaction) {
  return {
    async list(): Promise<Course[]> {
      return db
        .select(courseColumns)
        .from(courses)
        .leftJoin(lessons, eq(lessons.courseId, courses.id))
        .groupBy(courses.id)
        .orderBy(asc(courses.position), asc(courses.title));
    },

    async findById(id: string): Promise<Course | null> {
      const [row] = await db
        .select(courseColumns)
        .from(courses)
        .leftJoin(lessons, eq(lessons.courseId, courses.id))
        .where(eq(courses.id, id))
        .groupBy(courses.id);
      return row ?? null;
    },

    async count(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(courses);
      return row?.value ?? 0;
    },

    async listLessons(courseId: string) {
      return db.select().from(lessons).where(eq(lessons.courseId, courseId)).orderBy(asc(lessons.position));
    },
  };
}

export type CoursesRepository = ReturnType<typeof createCoursesRepository>;
