import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(() => t.close());

describe('GET /api/admin/members/export.csv', () => {
  it('streams every member, however many joined at the same moment', async () => {
    // One insert: every row gets the same created_at, the hardest case for paging.
    const rows = Array.from({ length: 1203 }, (_, index) => ({
      name: `Export Member ${index}`,
      email: `export-${index}@example.com`,
      passwordHash: 'not-a-real-hash',
    }));
    await t.db.insert(members).values(rows);
    const staff = await t.loginAsStaff();
    const response = await t.app.inject({ url: '/api/admin/members/export.csv', headers: { authorization: `Bearer ${staff.token}` } });
    expect(response.statusCode).toBe(200);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Email,Tier,Joined');
    const emails = new Set(lines.slice(1).map((line) => line.split(',')[1]));
    expect(emails.size).toBe(1203);
    expect(lines).toHaveLength(1204);
  });
});
