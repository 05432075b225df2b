import { describe, expect, it } from 'vitest';
import { addDays, formatDateInZone, instantOf, localDateOf } from '../../common/time-zones.ts';
import { gotoHydrated, pageProblems, signInAsStaff, signInAtTier, toast, useBrowser } from './browser.ts';

// Drip: a member on a phone starts a course whose second lesson opens on a date; the course page
// says when, in the member's time. Staff bring the date forward in the course editor, and the
// member finds the lesson open.

const browser = useBrowser();

describe('drip', () => {
  it('shows a member on a phone when a lesson opens, then opens it when staff bring its date forward', async () => {
    const staff = await browser.newPage();
    await signInAsStaff(staff);
    const created = await staff.request.post('/api/admin/courses', {
      data: {
        title: `A Lesson a Day ${Date.now()}`,
        description: 'One step at a time.',
        category: 'sales',
        tier: 'gold',
        instructor: 'Dana Whitfield',
        level: 'beginner',
        duration: '20m',
      },
    });
    expect(created.status()).toBe(201);
    const courseId = ((await created.json()) as { course: { id: string } }).course.id;
    const inAWeek = addDays(localDateOf(new Date(), 'UTC'), 7);
    for (const lesson of [
      { title: 'Start here', duration: '5:00', video_url: 'https://videos.example.com/start.mp4' },
      { title: 'Next week', duration: '5:00', video_url: 'https://videos.example.com/next-week.mp4', opens_on: inAWeek },
    ])
      expect((await staff.request.post(`/api/admin/courses/${courseId}/lessons`, { data: lesson })).status()).toBe(201);
    expect((await staff.request.post(`/api/admin/courses/${courseId}/status`, { data: { status: 'published' } })).status()).toBe(200);

    // The member's zone is the browser's (UTC here): the lesson opens at midnight there.
    // Gold: news of this course reaches no member another test counts the bell of.
    const { page: phone } = await signInAtTier(browser, 'gold', 'Drew Drip', { mobile: true });
    await gotoHydrated(phone, `/courses/${courseId}`);
    await phone.getByRole('button', { name: 'Start Learning' }).click();
    await toast(phone, 'Enrolled successfully!');
    const [year, month, day] = inAWeek.split('-').map(Number) as [number, number, number];
    const opens = formatDateInZone(instantOf({ year, month, day, hour: 0, minute: 0 }, 'UTC'), 'UTC');
    await phone.getByText(`🔒 Opens ${opens}`).waitFor();
    await phone.getByRole('button', { name: /Next week/ }).click();
    expect(await phone.getByRole('button', { name: 'Watch Lesson' }).count()).toBe(0);

    // Staff bring it forward to today.
    await gotoHydrated(staff, `/admin/dashboard/courses/${courseId}`);
    const lesson = staff.getByRole('listitem').filter({ hasText: 'Next week' });
    await lesson.getByText('Edit lesson').click();
    await lesson.getByLabel("Or opens on (optional, midnight in the member's time)").fill(localDateOf(new Date(), 'UTC'));
    await lesson.getByRole('button', { name: 'Save lesson' }).click();
    await lesson.getByRole('status').filter({ hasText: 'Lesson saved.' }).waitFor();

    await gotoHydrated(phone, `/courses/${courseId}`);
    expect(await phone.getByText(/🔒 Opens/).count()).toBe(0);
    await phone.getByRole('button', { name: /Next week/ }).click();
    await phone.getByRole('button', { name: 'Watch Lesson' }).last().waitFor();

    expect(pageProblems(phone)).toEqual([]);
    expect(pageProblems(staff)).toEqual([]);
  });
});
