import { asc, count, eq } from 'drizzle-orm';
import type { Course, CourseCategory } from '../../common/catalogue.ts';
import type { Tier } from '../../common/tiers.ts';
import type { Database } from '../../db/client.ts';
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

type CourseRow = Omit<Course, 'category' | 'tier'> & { category: string; tier: string };
const toCourse = (row: CourseRow): Course => ({ ...row, category: row.category as CourseCategory, tier: row.tier as Tier });

export function createCoursesRepository(db: Database) {
  return {
    async list(): Promise<Course[]> {
      const rows = await db
        .select(courseColumns)
        .from(courses)
        .leftJoin(lessons, eq(lessons.courseId, courses.id))
        .groupBy(courses.id)
        .orderBy(asc(courses.position), asc(courses.title));
      return rows.map(toCourse);
    },

    async findById(id: string): Promise<Course | null> {
      const [row] = await db
        .select(courseColumns)
        .from(courses)
        .leftJoin(lessons, eq(lessons.courseId, courses.id))
        .where(eq(courses.id, id))
        .groupBy(courses.id);
      return row ? toCourse(row) : null;
    },

    async listLessons(courseId: string) {
      return db.select().from(lessons).where(eq(lessons.courseId, courseId)).orderBy(asc(lessons.position));
    },
  };
}

export type CoursesRepository = ReturnType<typeof createCoursesRepository>;
