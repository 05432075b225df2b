import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../common/limits.ts';
import { auditLog, communityPosts, communityReplies } from '../../db/schema.ts';
import { startPageApp, type PageApp } from '../helpers/page-app.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// A member's own lists beyond the dashboard's first items: /dashboard/{courses,certificates,replies},
// a page at a time with 'Next page' links that work without JavaScript.

let t: TestApp;
let site: PageApp;
let author: MemberLogin;
const REPLIES = PAGE_SIZE.memberList + 5;

beforeAll(async () => {
  t = await createTestApp();
  site = await startPageApp(t);
  author = await t.loginAs('bronze', { name: 'Paging Author' });
  const [post] = await t.db
    .insert(communityPosts)
    .values({ authorId: author.memberId, userName: author.name, title: 'Open houses that work', content: 'What works for you?' })
    .returning({ id: communityPosts.id });
  const replier = await t.loginAs('bronze', { name: 'Busy Replier' });
  // Replies a minute apart, newest last: the list shows the newest first.
  await t.db.insert(communityReplies).values(
    Array.from({ length: REPLIES }, (_, index) => ({
      postId: post!.id,
      authorId: replier.memberId,
      authorName: replier.name,
      body: `Reply number ${index + 1}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 12, index)),
    })),
  );
}, 120_000);
afterAll(async () => {
  await site?.close();
  await t.close();
});

const page = (url: string, headers: object = author.headers) => site.app.inject({ url, headers: { ...headers } });
// What the page shows: its markup before the scripts (which carry the same data again for the browser).
const shownPart = (html: string) => html.slice(0, html.indexOf('<script'));
const repliesOn = (html: string) => [...shownPart(html).matchAll(/Reply number (\d+)/g)].map((match) => Number(match[1]));
const nextLink = (html: string) => /<a[^>]*href="([^"]+)"[^>]*rel="next"|<a[^>]*rel="next"[^>]*href="([^"]+)"/.exec(html);

describe('a member’s own lists, page by page', () => {
  it('shows every reply to the member’s discussions, newest first, a page at a time with a Next page link', async () => {
    const dashboard = await page('/dashboard');
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.body).toContain('All replies to your posts');

    const first = await page('/dashboard/replies');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Replies to your posts');
    const firstReplies = repliesOn(first.body);
    expect(firstReplies).toEqual(Array.from({ length: PAGE_SIZE.memberList }, (_, index) => REPLIES - index));
    const link = nextLink(first.body);
    expect(link, 'a Next page link').not.toBeNull();
    const next = (link![1] ?? link![2])!.replaceAll('&amp;', '&');

    const second = await page(next);
    expect(second.statusCode).toBe(200);
    expect(repliesOn(second.body)).toEqual([5, 4, 3, 2, 1]);
    expect(nextLink(second.body)).toBeNull();
    expect(second.body).toContain('First page');
  });

  it('shows the member’s courses and certificates lists, even when empty', async () => {
    const courses = await page('/dashboard/courses');
    expect(courses.statusCode).toBe(200);
    expect(courses.body).toContain('My courses');
    expect(courses.body).toContain('You haven’t enrolled in any courses yet.');
    const certificates = await page('/dashboard/certificates');
    expect(certificates.statusCode).toBe(200);
    expect(certificates.body).toContain('Finish every lesson of a course to earn its certificate.');
  });

  it('sends visitors to sign in, and answers an unknown list with 404 and a broken page link with 400', async () => {
    const visitor = await site.app.inject({ url: '/dashboard/replies' });
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toBe('/login');
    expect((await page('/dashboard/everything')).statusCode).toBe(404);
    const broken = await page('/dashboard/replies?before=not-a-cursor');
    expect(broken.statusCode).toBe(400);
  });
});

describe('a member’s page for staff', () => {
  it('pages the member’s activity, and refuses a broken page link', async () => {
    const member = await t.loginAs('silver', { name: 'Much Changed' });
    const entries = PAGE_SIZE.staffList + 5;
    await t.db.insert(auditLog).values(
      Array.from({ length: entries }, (_, index) => ({
        actorEmail: 'owner@example.com',
        action: 'member.tier',
        target: member.email,
        oldValue: `change ${index + 1}`,
        newValue: null,
      })),
    );
    const staff = await t.loginAsStaff();
    const headers = { authorization: `Bearer ${staff.token}` };
    const first = await t.app.inject({ url: `/api/admin/members/${member.memberId}`, headers });
    expect(first.statusCode).toBe(200);
    const firstPage = first.json<{ activity: { id: number }[]; next: { activity: string | null; courses: string | null } }>();
    expect(firstPage.activity).toHaveLength(PAGE_SIZE.staffList);
    expect(firstPage.next.courses).toBeNull();
    const second = await t.app.inject({
      url: `/api/admin/members/${member.memberId}?activity=${encodeURIComponent(firstPage.next.activity!)}`,
      headers,
    });
    const secondPage = second.json<{ activity: { id: number }[]; next: { activity: string | null } }>();
    expect(secondPage.activity).toHaveLength(5);
    expect(secondPage.next.activity).toBeNull();
    const ids = [...firstPage.activity, ...secondPage.activity].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(entries);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const broken = await t.app.inject({ url: `/api/admin/members/${member.memberId}?activity=broken`, headers });
    expect(broken.statusCode).toBe(400);
  });
});
