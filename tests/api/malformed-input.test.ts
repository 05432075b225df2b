import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages, contentSections, members } from '../../db/schema.ts';
import { createTestApp, uniqueEmail, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Every malformed input gets a 4xx with a message a person can read, never a 500.
let t: TestApp;
let member: MemberLogin;
let staffHeaders: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  member = await t.loginAs('gold');
  staffHeaders = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
});
afterAll(() => t.close());

const expectReadable400 = (response: { statusCode: number; json(): { detail?: unknown } }, detail?: RegExp | string) => {
  expect(response.statusCode).toBe(400);
  const body = response.json();
  expect(typeof body.detail).toBe('string');
  if (detail instanceof RegExp) expect(body.detail).toMatch(detail);
  else if (detail) expect(body.detail).toBe(detail);
};

describe('malformed ids', () => {
  it.each([
    ['GET', '/api/courses/%00', undefined, 'Course id must be letters, digits, dashes or underscores (at most 100)'],
    ['GET', '/api/courses/%00/lessons', undefined, /Course id/],
    ['GET', '/api/certificates/%00', undefined, /certificate code/],
    ['POST', '/api/lessons/%00/complete', 'member', /Lesson id/],
    ['POST', '/api/courses/%00/enrol', 'member', /Course id/],
    ['POST', '/api/admin/members/------------------------------------/tier', 'staff', 'Member id must be a valid id'],
    ['POST', '/api/admin/members/not-an-id/tier', 'staff', 'Member id must be a valid id'],
    ['POST', '/api/admin/messages/%00/handled', 'staff', 'Message id must be a valid id'],
    ['GET', '/api/content/%00', undefined, /content section/],
  ] as const)('%s %s answers 400', async (method, url, as, detail) => {
    const headers = as === 'member' ? member.headers : as === 'staff' ? staffHeaders : {};
    const payload = url.endsWith('/tier') ? { membership_tier: 'gold' } : undefined;
    expectReadable400(await t.app.inject({ method, url, headers, payload }), detail);
  });

  it('answers a well-formed id that matches nothing with 404', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/members/00000000-0000-4000-8000-000000000000/tier',
      headers: staffHeaders,
      payload: { membership_tier: 'gold' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Member not found' });
  });
});

describe('NUL characters', () => {
  it('refuses a NUL in a sign-up name and creates no account', async () => {
    const email = uniqueEmail('nul');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Ava\u0000Agent', email, password: 'secret12' },
    });
    expectReadable400(response, 'Name must not contain control characters');
    expect(await t.db.select().from(members).where(eq(members.email, email))).toHaveLength(0);
  });

  it('refuses a NUL in a contact field and stores nothing', async () => {
    const [before] = await t.db.select({ value: count() }).from(contactMessages);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Pat', email: 'pat@example.com', subject: 'Hello', message: 'Hi\u0000there' },
    });
    expectReadable400(response, 'Message must not contain control characters');
    const [after] = await t.db.select({ value: count() }).from(contactMessages);
    expect(after!.value).toBe(before!.value);
  });

  it('refuses a NUL in an admin content field and an episode title', async () => {
    const content = await t.app.inject({
      method: 'POST',
      url: '/api/admin/content/footer_text',
      headers: staffHeaders,
      payload: { copyright: '© 2025', tagline: 'bad\u0000tagline' },
    });
    expectReadable400(content, 'The value of "tagline" must not contain control characters.');
    const podcast = await t.app.inject({
      method: 'POST',
      url: '/api/admin/podcast/update',
      headers: staffHeaders,
      payload: [{ id: 'ep-nul', title: 'a\u0000b' }],
    });
    expectReadable400(podcast, /Title must not contain control characters/);
  });
});

describe('passwords', () => {
  it('refuses a password of only spaces, keeping the 6-character rule and its text', async () => {
    const register = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { name: 'Space Bar', email: uniqueEmail('space'), password } });
    expectReadable400(await register('      '), 'Password cannot be only spaces');
    expectReadable400(await register('12345'), 'Must be at least 6 characters');
    expect((await register(' pass word ')).statusCode).toBe(201);
  });
});

describe('query parameters', () => {
  it('refuses a repeated search parameter and a NUL in it', async () => {
    const repeated = await t.app.inject({ url: '/api/admin/members?search=a&search=b', headers: staffHeaders });
    expectReadable400(repeated, 'Give search once, as text');
    const nul = await t.app.inject({ url: '/api/admin/members?search=a%00b', headers: staffHeaders });
    expectReadable400(nul, 'search must not contain control characters');
    const csv = await t.app.inject({ url: '/api/admin/members/export.csv?search=a&search=b', headers: staffHeaders });
    expectReadable400(csv, 'Give search once, as text');
  });
});

describe('content sections are saved whole', () => {
  it('refuses a save that leaves out fields of the section and keeps what was stored', async () => {
    const [before] = await t.db.select().from(contentSections).where(eq(contentSections.key, 'homepage_hero'));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/content/homepage_hero',
      headers: staffHeaders,
      payload: { headline: 'Only the headline' },
    });
    expectReadable400(
      response,
      'The section homepage_hero is missing "subheadline", "cta_text". Send every field of the section: headline, subheadline, cta_text.',
    );
    const [after] = await t.db.select().from(contentSections).where(eq(contentSections.key, 'homepage_hero'));
    expect(after!.data).toEqual(before!.data);
    const empty = await t.app.inject({ method: 'POST', url: '/api/admin/content/homepage_hero', headers: staffHeaders, payload: {} });
    expect(empty.statusCode).toBe(400);
  });
});
