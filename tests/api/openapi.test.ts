import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// The API's description (issue: 'Run the business by its numbers', part 4): OpenAPI 3.1, made from
// the routes' own zod contracts as they are registered, served at /api/openapi.json.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

interface Operation {
  description: string;
  security: Record<string, string[]>[];
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, unknown>; required?: string[] } } } };
  responses: Record<string, { content?: { 'application/json': { schema: Record<string, unknown> } } }>;
}
type Document = { openapi: string; info: { title: string }; paths: Record<string, Record<string, Operation>> };

describe('the API description', () => {
  it('describes every /api route registered, with its parameters, body, answers and who may call it', async () => {
    const answer = await t.app.inject('/api/openapi.json');
    expect(answer.statusCode).toBe(200);
    const document = answer.json() as Document;
    expect(document.openapi).toBe('3.1.0');

    const routes = t.app.routeAccess.filter((route) => route.url.startsWith('/api/') && !route.url.includes('*'));
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      expect(document.paths[path]?.[route.method.toLowerCase()], `${route.method} ${route.url}`).toBeDefined();
    }

    const lessons = document.paths['/api/courses/{id}/lessons']!.get!;
    expect(lessons.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(lessons.responses['200']!.content!['application/json'].schema.type).toBe('array');
    expect(lessons.responses['4XX']!.content!['application/json'].schema).toMatchObject({ required: ['detail'] });
    expect(lessons.description).toBe('Who may call it: anyone (a signed-in viewer may see more).');

    const enrol = document.paths['/api/courses/{id}/enrol']!.post!;
    expect(enrol.description).toBe('Who may call it: a signed-in member.');
    expect(enrol.security).toEqual([{ session: [] }, { bearer: [] }]);

    const opening = document.paths['/api/admin/members/{id}/early-openings']!.post!;
    expect(opening.requestBody!.content['application/json'].schema.required).toEqual(['course_id', 'reason']);
    expect(opening.description).toBe('Who may call it: staff whose role opens the members area.');
  });

  it('describes answers as the routes give them: a described route answers in its declared shape', async () => {
    const document = (await t.app.inject('/api/openapi.json')).json() as Document;
    const courses = document.paths['/api/courses']!.get!.responses['200']!.content!['application/json'].schema as {
      items: { required: string[] };
    };
    const answer = (await t.app.inject('/api/courses')).json() as Record<string, unknown>[];
    expect(answer.length).toBeGreaterThan(0);
    for (const course of answer) expect(Object.keys(course).sort()).toEqual([...courses.items.required].sort());
  });
});
