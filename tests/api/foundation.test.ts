import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSE_CATEGORIES } from '../../common/courses.contract.ts';
import { TIERS } from '../../common/tiers.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health', () => {
  it('answers 200 once the database answers', async () => {
    const response = await t.app.inject('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('demo catalogue through GET /api/courses', () => {
  it('returns every course with every field the spec lists', async () => {
    const response = await t.app.inject('/api/courses');
    expect(response.statusCode).toBe(200);
    const courses = response.json() as Record<string, unknown>[];
    expect(courses.length).toBeGreaterThanOrEqual(12);
    for (const course of courses) {
      // The spec's fields, and what staff set beyond them (level, certificate on or off, Gold's early access, a prerequisite).
      expect(Object.keys(course).sort()).toEqual(
        [
          'category',
          'description',
          'duration',
          'id',
          'instructor',
          'lesson_count',
          'thumbnail',
          'tier',
          'title',
          'level',
          'certificate',
          'early_access',
          'prerequisite',
        ].sort(),
      );
      expect(course.lesson_count).toBeGreaterThanOrEqual(4);
      expect(course.lesson_count).toBeLessThanOrEqual(8);
    }
    expect(new Set(courses.map((c) => c.category))).toEqual(new Set(COURSE_CATEGORIES));
    expect(new Set(courses.map((c) => c.tier))).toEqual(new Set(TIERS));
  });

  it('answers an unknown course with 404 and a detail', async () => {
    const response = await t.app.inject('/api/courses/no-such-course');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Course not found' });
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const response = await t.app.inject('/api/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json().detail).toMatch(/no API endpoint/);
  });
});

describe('session guards', () => {
  it('refuses a staff-only call without a session (401) and with a member session (403)', async () => {
    expect((await t.app.inject('/api/admin/session')).statusCode).toBe(401);
    const member = await t.loginAs('gold');
    const asMember = await t.app.inject({ url: '/api/admin/session', headers: member.headers });
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json().detail).toBe('This needs an administrator account.');
  });

  it('accepts a staff session from a Bearer header or the staff cookie', async () => {
    const staff = await t.loginAsStaff();
    const bearer = await t.app.inject({ url: '/api/admin/session', headers: { authorization: `Bearer ${staff.token}` } });
    expect(bearer.json()).toEqual({ email: staff.email, storage_name: 'Local Storage', role: 'owner', two_factor_setup_needed: false });
    const cookie = await t.app.inject({ url: '/api/admin/session', cookies: { rp_staff: staff.token } });
    expect(cookie.statusCode).toBe(200);
  });

  it('refuses a forged token and a revoked session', async () => {
    const forged = await t.app.inject({ url: '/api/admin/session', headers: { authorization: 'Bearer forged-token-value' } });
    expect(forged.statusCode).toBe(401);
    const staff = await t.loginAsStaff();
    const session = await t.app.sessions.resolve(staff.token);
    await t.app.sessions.revoke(session!.sessionId);
    const revoked = await t.app.inject({ url: '/api/admin/session', headers: { authorization: `Bearer ${staff.token}` } });
    expect(revoked.statusCode).toBe(401);
  });

  it('sends lesson videos only to a member whose tier reaches the course tier', async () => {
    const courses = (await t.app.inject('/api/courses')).json() as { id: string; tier: string }[];
    const goldCourse = courses.find((course) => course.tier === 'gold')!;
    const lessonsFor = async (headers?: Record<string, string>) =>
      (await t.app.inject({ url: `/api/courses/${goldCourse.id}/lessons`, headers })).json() as {
        video_url: string | null;
        has_video: boolean;
      }[];
    const asVisitor = await lessonsFor();
    expect(asVisitor.some((lesson) => lesson.has_video)).toBe(true);
    expect(asVisitor.every((lesson) => lesson.video_url === null)).toBe(true);
    const silver = await t.loginAs('silver');
    expect((await lessonsFor(silver.headers)).every((lesson) => lesson.video_url === null)).toBe(true);
    const gold = await t.loginAs('gold');
    expect((await lessonsFor(gold.headers)).some((lesson) => lesson.video_url !== null)).toBe(true);
  });
});
