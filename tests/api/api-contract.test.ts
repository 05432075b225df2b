import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// The API answers as its description says (issue: 'Run the business by its numbers', part 4): every
// GET route that needs no id, asked by a visitor, a Gold member and an owner, answers a status the
// description names, and a 2xx in the very shape it declares; the reference page lists every route.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

type Described = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

describe('the API as described', () => {
  it('answers every GET without an id, for each kind of viewer, with a described status and shape', async () => {
    const document = (await t.app.inject('/api/openapi.json')).json() as Described;
    const gold = await t.loginAs('gold');
    const owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    const routes = t.app.routeAccess.filter(
      (route) => route.method === 'GET' && route.url.startsWith('/api/') && !route.url.includes(':') && !route.url.includes('*'),
    );
    expect(routes.length).toBeGreaterThan(40);
    const problems: string[] = [];
    for (const route of routes) {
      const declared = ((route.schema ?? {}) as { response?: Record<string, unknown> }).response ?? {};
      const described = document.paths[route.url]!.get!.responses;
      for (const [viewer, headers] of [
        ['visitor', {}],
        ['gold member', gold.headers],
        ['owner', owner],
      ] as const) {
        const answer = await t.app.inject({ method: 'GET', url: route.url, headers });
        const where = `GET ${route.url} as ${viewer}: ${answer.statusCode}`;
        // A 503 says what is away (payments not set up here); a 500 is a defect.
        if (answer.statusCode === 500) problems.push(`${where} ${answer.body.slice(0, 200)}`);
        const status = String(answer.statusCode);
        const family = `${status[0]}XX`;
        if (Object.keys(declared).length === 0) continue; // a file or a page: no JSON shape to hold it to
        if (!(status in described) && !(family in described)) problems.push(`${where} is not described`);
        const schema = declared[status] ?? declared[family.toLowerCase()] ?? declared[family];
        if (schema instanceof z.ZodType && answer.headers['content-type']?.toString().startsWith('application/json')) {
          const parsed = schema.safeParse(answer.json());
          if (!parsed.success) problems.push(`${where} does not have its described shape: ${parsed.error.issues[0]?.message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has a reference page a person reads, listing every route', async () => {
    const page = await t.app.inject('/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(page.body).not.toContain('<script');
    for (const route of t.app.routeAccess.filter((each) => each.url.startsWith('/api/') && !each.url.includes('*'))) {
      expect(page.body, route.url).toContain(`<code>${route.url.replace(/:(\w+)/g, '{$1}')}</code>`);
    }
    // Each operation says who may call it, with an example made from its schema.
    expect(page.body).toContain('Who may call it: a signed-in member.');
    expect(page.body).toContain('&quot;password&quot;');
  });
});
