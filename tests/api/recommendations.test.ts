import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Recommendation } from '../../common/recommendations.contract.ts';
import { TIER_LABEL, tierReaches, type Tier } from '../../common/tiers.ts';
import { addDays } from '../../common/time-zones.ts';
import { members } from '../../db/schema.ts';
import { DEMO_COURSES } from '../../db/seed/demo-catalogue.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// 'Recommended for you': the rules of docs/decisions/016, each with its reason; what the member's
// plan does not open is offered as the upgrade, never as a link to a page they cannot open.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, who: MemberLogin, payload?: object) => t.app.inject({ method: 'POST', url, headers: who.headers, payload });
const recommendedTo = async (who: MemberLogin) => {
  const answer = await t.app.inject({ url: '/api/recommendations', headers: who.headers });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as Recommendation[];
};
const courseTier = new Map(DEMO_COURSES.map((course) => [course.id, course.tier]));
/** Each item has its reason, and leads to the course when the member's plan opens it, else only to the upgrade. */
function expectAsThePlanAllows(list: Recommendation[], tier: Tier) {
  expect(list.length).toBeGreaterThan(0);
  for (const item of list) {
    const needs = courseTier.get(item.course_id)!;
    expect(item.reason, item.course_id).not.toBe('');
    if (tierReaches(tier, needs)) {
      expect(item, item.course_id).toMatchObject({ locked: false, href: `/courses/${item.course_id}`, upgrade_to: null });
      expect(item.reason).not.toContain('Upgrade');
    } else {
      expect(item, item.course_id).toMatchObject({ locked: true, href: '/pricing', upgrade_to: needs });
      expect(item.reason.endsWith(` · Upgrade to ${TIER_LABEL[needs]} to open it`), item.reason).toBe(true);
    }
  }
}
const dueIn40Days = () => addDays(new Date().toISOString().slice(0, 10), 40);

describe('recommended for you', () => {
  it('starts a new member on the courses their plan includes', async () => {
    const member = await t.loginAs('free');
    const list = await recommendedTo(member);
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(4);
    for (const item of list) expect(item).toMatchObject({ reason: 'Included in your Free plan', locked: false });
    expect((await t.app.inject({ url: '/api/recommendations' })).statusCode).toBe(401);
  });

  it('puts a course goal first, then where the member stopped, then what their goals are about, locked above their plan', async () => {
    const member = await t.loginAs('free');
    await post('/api/courses/first-90-days/enrol', member);
    await post('/api/lessons/first-90-days-l1/complete', member);
    const dueOn = addDays(new Date().toISOString().slice(0, 10), 40);
    await post('/api/goals', member, { kind: 'course', course_id: 'sphere-of-influence', due_on: dueOn });
    await post('/api/goals', member, { kind: 'count', title: 'Negotiation practice', target: 3, unit: 'role plays', period: 'week' });

    const [goal, stopped, ...rest] = await recommendedTo(member);
    expect(goal).toMatchObject({ course_id: 'sphere-of-influence', href: '/courses/sphere-of-influence', locked: false });
    expect(goal!.reason).toMatch(/^Because your goal is to finish it by /);
    expect(stopped).toMatchObject({ course_id: 'first-90-days', reason: 'Pick up where you stopped: 1 of 6 lessons done' });
    expect(rest.find((item) => item.course_id === 'negotiation-strategies')).toEqual({
      course_id: 'negotiation-strategies',
      title: expect.any(String),
      reason: 'Because you are working on Negotiation practice · Upgrade to Silver to open it',
      href: '/pricing',
      locked: true,
      upgrade_to: 'silver',
    });
  });

  it('never recommends a course the member finished', async () => {
    const member = await t.loginAs('free');
    await post('/api/courses/first-90-days/enrol', member);
    for (let lesson = 1; lesson <= 6; lesson++) await post(`/api/lessons/first-90-days-l${lesson}/complete`, member);
    expect((await recommendedTo(member)).map((item) => item.course_id)).not.toContain('first-90-days');
  });

  it('starts a new Bronze, Silver or Gold member on courses their plan includes, each open', async () => {
    for (const tier of ['bronze', 'silver', 'gold'] as const) {
      const list = await recommendedTo(await t.loginAs(tier));
      expect(list.length, tier).toBeLessThanOrEqual(4);
      expectAsThePlanAllows(list, tier);
      for (const item of list) expect(item).toMatchObject({ reason: `Included in your ${TIER_LABEL[tier]} plan`, locked: false });
    }
  });

  it('opens a Bronze member’s own courses, and shows Silver and Gold ones only as the upgrade', async () => {
    const member = await t.loginAs('bronze');
    await post('/api/goals', member, { kind: 'count', title: 'Negotiation practice', target: 3, unit: 'role plays', period: 'week' });
    await post('/api/goals', member, { kind: 'count', title: 'Luxury listings', target: 2, unit: 'listings', period: 'month' });
    const list = await recommendedTo(member);
    expectAsThePlanAllows(list, 'bronze');
    expect(list).toEqual([
      expect.objectContaining({
        course_id: 'objection-handling',
        reason: 'Because you are working on Negotiation practice',
        locked: false,
      }),
      expect.objectContaining({
        course_id: 'negotiation-strategies',
        reason: 'Because you are working on Negotiation practice · Upgrade to Silver to open it',
        href: '/pricing',
        locked: true,
        upgrade_to: 'silver',
      }),
      expect.objectContaining({ course_id: 'listing-presentation-mastery', locked: false }),
      expect.objectContaining({
        course_id: 'luxury-market',
        reason: 'Because you are working on Luxury listings · Upgrade to Gold to open it',
        href: '/pricing',
        locked: true,
        upgrade_to: 'gold',
      }),
    ]);
  });

  it('opens Silver courses to a Silver member, where they stopped and as a goal, and shows Gold ones only as the upgrade', async () => {
    const member = await t.loginAs('silver');
    await post('/api/courses/negotiation-strategies/enrol', member);
    await post('/api/lessons/negotiation-strategies-l1/complete', member);
    expect((await post('/api/goals', member, { kind: 'course', course_id: 'investor-clients', due_on: dueIn40Days() })).statusCode).toBe(
      201,
    );
    await post('/api/goals', member, { kind: 'count', title: 'Luxury listings', target: 2, unit: 'listings', period: 'month' });
    const list = await recommendedTo(member);
    expectAsThePlanAllows(list, 'silver');
    const [goal, stopped] = list;
    expect(goal).toMatchObject({ course_id: 'investor-clients', href: '/courses/investor-clients', locked: false, upgrade_to: null });
    expect(goal!.reason).toMatch(/^Because your goal is to finish it by /);
    expect(stopped).toMatchObject({ course_id: 'negotiation-strategies', href: '/courses/negotiation-strategies', locked: false });
    expect(stopped!.reason).toMatch(/^Pick up where you stopped: 1 of \d+ lessons done$/);
    expect(list.find((item) => item.course_id === 'luxury-market')).toMatchObject({
      reason: 'Because you are working on Luxury listings · Upgrade to Gold to open it',
      href: '/pricing',
      locked: true,
      upgrade_to: 'gold',
    });
  });

  it('opens every course to a Gold member, Gold courses too, and never offers an upgrade', async () => {
    const member = await t.loginAs('gold');
    await post('/api/courses/luxury-market/enrol', member);
    await post('/api/lessons/luxury-market-l1/complete', member);
    expect((await post('/api/goals', member, { kind: 'course', course_id: 'team-building', due_on: dueIn40Days() })).statusCode).toBe(201);
    await post('/api/goals', member, { kind: 'count', title: 'Relocation clients', target: 2, unit: 'clients', period: 'month' });
    const list = await recommendedTo(member);
    expectAsThePlanAllows(list, 'gold');
    expect(list.every((item) => !item.locked && item.upgrade_to === null)).toBe(true);
    const [goal, stopped] = list;
    expect(goal).toMatchObject({ course_id: 'team-building', href: '/courses/team-building', locked: false });
    expect(goal!.reason).toMatch(/^Because your goal is to finish it by /);
    expect(stopped).toMatchObject({ course_id: 'luxury-market', href: '/courses/luxury-market', locked: false });
    expect(stopped!.reason).toMatch(/^Pick up where you stopped: 1 of \d+ lessons done$/);
    expect(list.find((item) => item.course_id === 'relocation-specialist')).toMatchObject({
      reason: 'Because you are working on Relocation clients',
      href: '/courses/relocation-specialist',
      locked: false,
    });
  });

  it('shows a course the member’s plan no longer opens, after a downgrade, only as the upgrade', async () => {
    const member = await t.loginAs('silver');
    await post('/api/courses/negotiation-strategies/enrol', member);
    await post('/api/lessons/negotiation-strategies-l1/complete', member);
    await post('/api/goals', member, { kind: 'course', course_id: 'investor-clients', due_on: dueIn40Days() });
    await t.db.update(members).set({ membershipTier: 'bronze', complimentaryTier: 'bronze' }).where(eq(members.id, member.memberId));
    const list = await recommendedTo(member);
    expectAsThePlanAllows(list, 'bronze');
    const [goal, stopped] = list;
    expect(goal).toMatchObject({ course_id: 'investor-clients', href: '/pricing', locked: true, upgrade_to: 'silver' });
    expect(goal!.reason).toMatch(/^Because your goal is to finish it by .* · Upgrade to Silver to open it$/);
    expect(stopped).toMatchObject({ course_id: 'negotiation-strategies', href: '/pricing', locked: true, upgrade_to: 'silver' });
  });

  it('answers only members: a visitor and staff, editors and owners alike, are asked to sign in as a member', async () => {
    const visitor = await t.app.inject({ url: '/api/recommendations' });
    expect(visitor.statusCode).toBe(401);
    for (const role of ['editor', 'owner'] as const) {
      const staff = await t.loginAsStaff({ role });
      const answer = await t.app.inject({ url: '/api/recommendations', headers: { authorization: `Bearer ${staff.token}` } });
      expect(answer.statusCode, role).toBe(401);
      expect(answer.json().detail).toBe('Please sign in to continue.');
    }
  });
});
