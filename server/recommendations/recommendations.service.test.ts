import { beforeAll, describe, expect, it } from 'vitest';
import type { GoalInput } from '../../common/goals.contract.ts';
import { addDays } from '../../common/time-zones.ts';
import type { Viewer } from '../../common/viewer.ts';
import { authoredCourse, refusal, serviceTestApp, SIGN_IN_FIRST } from '../../tests/helpers/service-tests.ts';

// 'Recommended for you' (decision 016): the first rule to name a course gives its reason; a course
// the member's plan does not open leads to the plans; a finished course or a draft never shows.

const t = serviceTestApp();
const lessonsOf: Record<string, string[]> = {};

beforeAll(async () => {
  const catalogue = [
    { title: 'Cold Calling Basics', category: 'sales', tier: 'free', lessons: 2 },
    { title: 'Listing Photography', category: 'marketing', tier: 'free', lessons: 1 },
    { title: 'Advanced Negotiation Tactics', category: 'negotiation', tier: 'silver', lessons: 1 },
    { title: 'Luxury Sales Mastery', category: 'sales', tier: 'gold', lessons: 1 },
    { title: 'Team Building', category: 'business', tier: 'bronze', lessons: 1 },
  ] as const;
  for (const { lessons, ...course } of catalogue) {
    const made = await authoredCourse(
      t,
      course,
      Array.from({ length: lessons }, (_, index) => ({ title: `Part ${index + 1}` })),
    );
    lessonsOf[made.course.id] = made.lessons.map((lesson) => lesson.id);
  }
  await authoredCourse(t, { title: 'Unfinished Draft', tier: 'free' }, [{ title: 'Part 1' }], 'draft');
});

const recommend = (viewer: Viewer) => t.app.services.recommendations.forMember(viewer);
const goal = (viewer: Viewer, input: Partial<GoalInput> & Pick<GoalInput, 'kind'>) =>
  t.app.services.goals.create(viewer, { reminder: 'off', reminder_hour: 9, reminder_weekday: 1, ...input } as GoalInput);

describe('recommended for you', () => {
  it('is for members only', async () => {
    expect(await refusal(recommend(t.asVisitor()))).toEqual(SIGN_IN_FIRST);
    expect(await refusal(recommend(await t.asStaff('owner')))).toEqual(SIGN_IN_FIRST);
  });

  it('starts a new member on the published courses their plan includes', async () => {
    const free = await recommend(await t.asMember('free'));
    expect(free.map((each) => each.course_id).sort()).toEqual(['cold-calling-basics', 'listing-photography']);
    expect(free[0]).toMatchObject({ reason: 'Included in your Free plan', locked: false, upgrade_to: null });
    expect(free.find((each) => each.course_id === 'listing-photography')).toEqual({
      course_id: 'listing-photography',
      title: 'Listing Photography',
      reason: 'Included in your Free plan',
      href: '/courses/listing-photography',
      locked: false,
      upgrade_to: null,
    });

    // At most four, and never a draft.
    const gold = await recommend(await t.asMember('gold'));
    expect(gold).toHaveLength(4);
    expect(gold.map((each) => each.course_id)).not.toContain('unfinished-draft');
    for (const each of gold) expect(each.reason).toBe('Included in your Gold plan');
  });

  it('puts a course goal first, then where the member stopped, then what their goals are about, then their categories, locked above their plan', async () => {
    const member = await t.asMember('free');
    await t.app.services.learning.enrol(member, 'cold-calling-basics');
    await t.app.services.learning.completeLesson(member, lessonsOf['cold-calling-basics']![0]!);
    const dueOn = addDays(new Date().toISOString().slice(0, 10), 40);
    await goal(member, { kind: 'course', course_id: 'listing-photography', due_on: dueOn });
    await goal(member, { kind: 'count', title: 'Negotiation practice', target: 3, unit: 'role plays', period: 'week', due_on: null });

    const list = await recommend(member);
    expect(list.map((each) => [each.course_id, each.reason])).toEqual([
      ['listing-photography', expect.stringMatching(/^Because your goal is to finish it by [A-Z][a-z]{2} \d{1,2}, \d{4}$/)],
      ['cold-calling-basics', 'Pick up where you stopped: 1 of 2 lessons done'],
      ['advanced-negotiation-tactics', 'Because you are working on Negotiation practice · Upgrade to Silver to open it'],
      ['luxury-sales-mastery', 'Because you are taking Sales courses · Upgrade to Gold to open it'],
    ]);
    expect(list[2]).toMatchObject({ href: '/pricing', locked: true, upgrade_to: 'silver' });
    expect(list[3]).toMatchObject({ href: '/pricing', locked: true, upgrade_to: 'gold' });
  });

  it('asks a member to start a course they enrolled in, and never recommends one they finished', async () => {
    const member = await t.asMember('bronze');
    await t.app.services.learning.enrol(member, 'team-building');
    await t.app.services.learning.enrol(member, 'listing-photography');
    await t.app.services.learning.completeLesson(member, lessonsOf['listing-photography']![0]!);
    const list = await recommend(member);
    expect(list[0]).toMatchObject({ course_id: 'team-building', reason: 'You enrolled: start with the first lesson' });
    expect(list.map((each) => each.course_id)).not.toContain('listing-photography');
  });

  it('offers a course published since the member’s visit before this one ahead of the rest of their plan', async () => {
    const member = await t.asMember('free');
    // A second sign-in: the first one is now the visit before this one.
    await t.app.sessions.create({ kind: 'member', memberId: member.member.id });
    await authoredCourse(t, { title: 'Fresh Course', tier: 'free', category: 'business' }, [{ title: 'Part 1' }]);
    const list = await recommend(member);
    expect(list[0]).toMatchObject({ course_id: 'fresh-course', reason: 'New since your last visit', locked: false });
    expect(list.slice(1).map((each) => each.reason)).toEqual(['Included in your Free plan', 'Included in your Free plan']);
  });
});
