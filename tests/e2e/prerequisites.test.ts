import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, pageProblems, signInAsStaff, signInAtTier, toast, useBrowser } from './browser.ts';

// Prerequisites: staff make a course build on another in the course editor; a member on a phone is
// told to complete that one first; an owner opens the course early for them from their page in the
// admin, with a reason, and the member starts it.

const browser = useBrowser();

/** A published free course of one lesson, made by staff through the API. */
async function publishedCourse(staff: Page, title: string): Promise<string> {
  const created = await staff.request.post('/api/admin/courses', {
    data: {
      title,
      description: 'Step by step.',
      category: 'sales',
      tier: 'gold',
      instructor: 'Dana Whitfield',
      level: 'beginner',
      duration: '30m',
    },
  });
  expect(created.status()).toBe(201);
  const courseId = ((await created.json()) as { course: { id: string } }).course.id;
  const added = await staff.request.post(`/api/admin/courses/${courseId}/lessons`, {
    data: { title: 'The first steps', duration: '10:00', video_url: 'https://videos.example.com/first-steps.mp4' },
  });
  expect(added.status()).toBe(201);
  expect((await staff.request.post(`/api/admin/courses/${courseId}/status`, { data: { status: 'published' } })).status()).toBe(200);
  return courseId;
}

describe('prerequisites', () => {
  it('ask a member on a phone to complete the other course first, until an owner opens it early for them', async () => {
    const staff = await browser.newPage();
    await signInAsStaff(staff);
    const stamp = Date.now();
    const basics = `Listing Basics ${stamp}`;
    const advanced = `Advanced Listings ${stamp}`;
    const basicsId = await publishedCourse(staff, basics);
    const advancedId = await publishedCourse(staff, advanced);

    // Staff: the advanced course builds on the basics.
    await gotoHydrated(staff, `/admin/dashboard/courses/${advancedId}`);
    await staff.getByLabel('Complete first (optional)').selectOption(basicsId);
    await staff.getByRole('button', { name: 'Save course' }).click();
    await staff.getByRole('status').filter({ hasText: 'Course saved.' }).waitFor();

    // A member on a phone is told what to complete first, with no way to start.
    // Gold: news of these courses reaches no member another test counts the bell of.
    const { page: phone, email } = await signInAtTier(browser, 'gold', 'Pat Prerequisite', { mobile: true });
    await gotoHydrated(phone, `/courses/${advancedId}`);
    await phone.getByText('first: this course builds on it.').waitFor();
    await phone.getByRole('link', { name: basics }).first().waitFor();
    expect(await phone.getByRole('button', { name: 'Start Learning' }).count()).toBe(0);

    // An owner opens it for them, saying why.
    const [member] = (await (await staff.request.get(`/api/admin/members?search=${encodeURIComponent(email)}`)).json()) as { id: string }[];
    await gotoHydrated(staff, `/admin/dashboard/members/${member!.id}`);
    await staff.getByLabel('Course, or one of its dripped lessons').selectOption(advancedId);
    await staff.getByLabel('Why (kept in the activity log)').fill('Ten years of listings: the basics are behind her.');
    await staff.getByRole('button', { name: 'Open now' }).click();
    await staff
      .getByRole('status')
      .filter({ hasText: `“${advanced}” is open to this member now.` })
      .waitFor();

    await gotoHydrated(phone, `/courses/${advancedId}`);
    await phone.getByRole('button', { name: 'Start Learning' }).click();
    await toast(phone, 'Enrolled successfully!');

    expect(pageProblems(phone)).toEqual([]);
    expect(pageProblems(staff)).toEqual([]);
  });
});
