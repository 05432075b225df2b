import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOAL_NOT_FOUND, TOO_MANY_GOALS, type GoalView } from '../../common/goals.contract.ts';
import { GOALS } from '../../common/limits.ts';
import { addDays, DEFAULT_TIME_ZONE, localDateOf, localTimeOf } from '../../common/time-zones.ts';
import { goalEntries, members, outboxMessages } from '../../db/schema.ts';
import { sendGoalReminders } from '../../server/goals/goal-reminders.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Goals: every member sets them, logs progress, sees a streak; course goals move with the lessons
// completed; reminders go out once at the member's chosen hour, whichever server sends them.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = { authorization: string } | Record<string, never>;
const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

const callsAWeek = { kind: 'count', title: 'Calls to past clients', target: 20, unit: 'calls', period: 'week' };
async function goalOf(who: MemberLogin, input: object = callsAWeek): Promise<GoalView> {
  const answer = await request('POST', '/api/goals', who.headers, input);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json() as GoalView;
}
const log = (who: MemberLogin, goal: GoalView, amount: number) =>
  request('POST', `/api/goals/${goal.id}/progress`, who.headers, { amount });
const today = () => localDateOf(new Date(), DEFAULT_TIME_ZONE);

describe('setting goals', () => {
  it('lets every member set a goal, and visitors none', async () => {
    for (const tier of ['free', 'bronze', 'silver', 'gold'] as const) {
      const member = await t.loginAs(tier);
      expect(await goalOf(member)).toMatchObject({ title: 'Calls to past clients', done: 0, target: 20, period_label: 'this week' });
    }
    expect((await request('POST', '/api/goals', {}, callsAWeek)).statusCode).toBe(401);
    expect((await request('GET', '/api/goals')).statusCode).toBe(401);
  });

  it('says what is wrong with a goal that cannot be kept', async () => {
    const member = await t.loginAs('free');
    for (const [input, detail] of [
      [{ ...callsAWeek, target: 0 }, 'Target must be at least 1'],
      [{ ...callsAWeek, period: 'by_date' }, 'Choose the date to reach it by'],
      [{ ...callsAWeek, title: ' ' }, 'Goal is required'],
      [
        { kind: 'course', course_id: 'negotiation-strategies', due_on: addDays(today(), 30) },
        'Choose a published course your plan includes.',
      ],
    ] as const) {
      const answer = await request('POST', '/api/goals', member.headers, input);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().detail).toContain(detail);
    }
  });

  it(`keeps ${GOALS.maxActive} goals at most`, async () => {
    const member = await t.loginAs('free');
    for (let index = 0; index < GOALS.maxActive; index++) await goalOf(member);
    const more = await request('POST', '/api/goals', member.headers, callsAWeek);
    expect(more.statusCode).toBe(409);
    expect(more.json().detail).toBe(TOO_MANY_GOALS);
  });
});

describe('progress', () => {
  it('adds up what the member logs this week, with a streak of the days in a row, and is theirs alone', async () => {
    const member = await t.loginAs('bronze');
    const goal = await goalOf(member);
    // Two earlier days in a row, as if logged then.
    await t.db.insert(goalEntries).values([
      { goalId: goal.id, amount: 2, loggedOn: addDays(today(), -1) },
      { goalId: goal.id, amount: 1, loggedOn: addDays(today(), -2) },
      { goalId: goal.id, amount: 5, loggedOn: addDays(today(), -30) },
    ]);
    await log(member, goal, 1);
    const after = (await log(member, goal, 3)).json() as GoalView;
    const weekStart = addDays(today(), -((new Date(`${today()}T00:00:00Z`).getUTCDay() + 6) % 7));
    const earlierThisWeek = [1, 2]
      .filter((back) => addDays(today(), -back) >= weekStart)
      .reduce((sum, back) => sum + (back === 1 ? 2 : 1), 0);
    expect(after).toMatchObject({ done: 4 + earlierThisWeek, streak_days: 3, reached: false });
    expect(after.percent).toBe(Math.round(((4 + earlierThisWeek) * 100) / 20));

    const other = await t.loginAs('bronze');
    const refused = await log(other, goal, 1);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().detail).toBe(GOAL_NOT_FOUND);
    expect((await log(member, goal, 0)).statusCode).toBe(400);
    expect((await request('DELETE', `/api/goals/${goal.id}`, other.headers)).statusCode).toBe(404);
    expect((await request('DELETE', `/api/goals/${goal.id}`, member.headers)).statusCode).toBe(200);
    expect((await request('GET', '/api/goals', member.headers)).json()).toEqual([]);
  });

  it('moves a course goal as the member completes the course’s lessons', async () => {
    const member = await t.loginAs('free');
    const goal = await goalOf(member, { kind: 'course', course_id: 'first-90-days', due_on: addDays(today(), 60) });
    expect(goal).toMatchObject({ title: 'Finish Your First 90 Days in Real Estate', done: 0, target: 6 });
    expect((await log(member, goal, 1)).statusCode).toBe(409);
    await request('POST', '/api/courses/first-90-days/enrol', member.headers);
    await request('POST', '/api/lessons/first-90-days-l1/complete', member.headers);
    const [moved] = (await request('GET', '/api/goals', member.headers)).json() as GoalView[];
    expect(moved).toMatchObject({ done: 1, percent: 17, streak_days: 1 });
  });
});

describe('reminders', () => {
  const remindNow = () => ({
    reminder: 'daily',
    reminder_hour: localTimeOf(new Date(), DEFAULT_TIME_ZONE).hour,
    reminder_weekday: 1,
  });
  const remindersTo = (email: string) =>
    t.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.toAddress, email), eq(outboxMessages.kind, 'goal-reminder')));

  it('sends a reminder due now once, even when two servers run the reminders at the same moment', async () => {
    const member = await t.loginAs('silver');
    const goal = await goalOf(member);
    expect((await request('PUT', `/api/goals/${goal.id}/reminder`, member.headers, remindNow())).json()).toMatchObject({
      reminder: 'daily',
    });
    const mailer = createMailer({ publicUrl: 'http://localhost', nudge: () => {} });
    await Promise.all([sendGoalReminders(createDataAccess(t.db), mailer), sendGoalReminders(createDataAccess(t.db), mailer)]);
    await sendGoalReminders(createDataAccess(t.db), mailer);
    const sent = await remindersTo(member.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Your goal: Calls to past clients');
    expect(sent[0]!.text).toContain('0 of 20 calls this week');
  });

  it('sends none at another hour, and none to a member who turned optional mail off', async () => {
    const later = await t.loginAs('silver');
    const goal = await goalOf(later);
    await request('PUT', `/api/goals/${goal.id}/reminder`, later.headers, {
      ...remindNow(),
      reminder_hour: (remindNow().reminder_hour + 2) % 24,
    });
    const quiet = await t.loginAs('silver');
    await request('PUT', `/api/goals/${(await goalOf(quiet)).id}/reminder`, quiet.headers, remindNow());
    await t.db.update(members).set({ emailOptOut: true }).where(eq(members.id, quiet.memberId));
    await sendGoalReminders(createDataAccess(t.db), createMailer({ publicUrl: 'http://localhost', nudge: () => {} }));
    expect(await remindersTo(later.email)).toEqual([]);
    expect(await remindersTo(quiet.email)).toEqual([]);
  });
});
