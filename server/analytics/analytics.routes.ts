import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { courses, members } from '../../db/schema.ts';

export async function analyticsRoutes(app: FastifyInstance) {
  // SPEC 7: public, read-only counts for the home page's stats (no staff session needed).
  app.get('/api/admin/analytics/content', async () => {
    const [[users], [courseCount]] = await Promise.all([
      app.database.select({ value: count() }).from(members),
      app.database.select({ value: count() }).from(courses),
    ]);
    return { total_users: users.value, total_courses: courseCount.value };
  });
}
