import { describe, expect, it } from 'vitest';
import { courseWithQuizLesson, gotoHydrated, pageProblems, signInAsNewMember, signInAsStaff, toast, useBrowser } from './browser.ts';

// Quizzes: staff write one in the course editor, a member takes it on a phone, fails, and passes
// the next try; passing completes the course and issues its certificate with the score.

const browser = useBrowser();

describe('quizzes', () => {
  it('are written by staff in the course editor, and taken by a member on a phone: a failed try, then a pass and the certificate with its score', async () => {
    const staff = await browser.newPage();
    await signInAsStaff(staff);
    const { courseId, lessonId, title } = await courseWithQuizLesson(staff);

    // Staff open the quiz from the course editor and write two questions.
    await gotoHydrated(staff, `/admin/dashboard/courses/${courseId}`);
    await staff.getByRole('link', { name: 'Questions and results: Check your contracts knowledge' }).click();
    await staff.waitForURL(`**/admin/dashboard/courses/${courseId}/quiz/${lessonId}`);
    await staff.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await staff.getByLabel('Pass mark (% of questions right)').fill('100');
    await staff.getByLabel('Question 1: the question').fill('Which document sets the price a buyer pays?');
    await staff.getByLabel('Question 1, answer 1', { exact: true }).fill('The purchase agreement');
    await staff.getByLabel('Question 1, answer 2', { exact: true }).fill('The listing flyer');
    await staff
      .getByLabel('Question 1: explanation, shown once answered (optional)')
      .fill('The signed agreement is what binds both sides.');
    await staff.getByRole('button', { name: 'Add a question' }).click();
    await staff.getByLabel('Question 2: kind').selectOption('true_false');
    await staff.getByLabel('Question 2: the question').fill('An offer is binding once the buyer signs it alone.');
    await staff.getByLabel('Question 2, answer 2 is right').check();
    await staff.getByRole('button', { name: 'Save quiz' }).click();
    await staff.getByRole('status').filter({ hasText: 'Quiz saved.' }).waitFor();
    expect((await staff.request.post(`/api/admin/courses/${courseId}/status`, { data: { status: 'published' } })).status()).toBe(200);

    // A member on a 360 px phone.
    const phone = await browser.newPage({ mobile: true });
    await signInAsNewMember(phone, 'Quiz Taker');
    await gotoHydrated(phone, `/courses/${courseId}`);
    await phone.getByRole('button', { name: 'Check your contracts knowledge' }).click();
    await phone.getByRole('button', { name: 'Take the quiz' }).click();
    const player = phone.getByRole('dialog');
    await player.getByText('2 questions · pass mark 100% · as many tries as you like').waitFor();
    await player.getByRole('button', { name: 'Start the quiz' }).click();

    // First try: the flyer, and 'True'.
    await player.getByRole('radio', { name: 'The listing flyer' }).check();
    await player.getByRole('radio', { name: 'True' }).check();
    await player.getByRole('button', { name: 'Send my answers' }).click();
    await player.getByText('You scored 0%. The pass mark is 100%.').waitFor();
    await player.getByText('The signed agreement is what binds both sides.').waitFor();
    // A failed try with tries left does not say which answers were right.
    expect(await player.getByText('(right answer)').count()).toBe(0);

    // Second try: right.
    await player.getByRole('button', { name: 'Try again' }).click();
    await player.getByRole('radio', { name: 'The purchase agreement' }).check();
    await player.getByRole('radio', { name: 'False' }).check();
    await player.getByRole('button', { name: 'Send my answers' }).click();
    await player.getByText('You scored 100%: passed!').waitFor();
    await toast(phone, 'Course complete! Your certificate is ready on your dashboard.');
    await player.getByText('✓ Completed').waitFor();
    await player.getByRole('button', { name: 'Close' }).click();

    await phone.getByRole('link', { name: 'View your certificate' }).click();
    await phone.getByText('✓ Verified certificate').waitFor();
    await phone.getByText(title).waitFor();
    await phone.getByText('Quiz score: 100%').waitFor();
    // Nothing of the page is wider than the phone.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Staff see the two tries.
    await gotoHydrated(staff, `/admin/dashboard/courses/${courseId}/quiz/${lessonId}`);
    expect(await staff.getByTestId('quiz-results-summary').textContent()).toContain(
      '2 tries by 1 member, 1 passed · pass rate 50% of tries',
    );
    expect(pageProblems(phone)).toEqual([]);
    expect(pageProblems(staff)).toEqual([]);
  });
});
