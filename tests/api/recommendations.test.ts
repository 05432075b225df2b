import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recommendation } from '../../common/recommendations.contract.ts';
import { addDays } from '../../common/time-zones.ts';
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
});
