import { describe, expect, it } from 'vitest';
import { GOAL_NOT_FOUND } from '../../common/goals.contract.ts';
import { refusal, serviceTestApp, SIGN_IN_FIRST } from '../../tests/helpers/service-tests.ts';
import { periodsOf, streakOf } from './goals.service.ts';

// Goals: each member's own; periods and streaks in the member's time zone.

const t = serviceTestApp();
const callsAWeek = {
  kind: 'count',
  title: 'Calls',
  target: 10,
  unit: 'calls',
  period: 'week',
  due_on: null,
  reminder: 'off',
  reminder_hour: 9,
  reminder_weekday: 1,
} as const;

describe('goals', () => {
  it('refuses visitors, and one member’s goal to another', async () => {
    expect(await refusal(t.app.services.goals.list(t.asVisitor()))).toEqual(SIGN_IN_FIRST);
    const owner = await t.asMember('free');
    const goal = await t.app.services.goals.create(owner, callsAWeek);
    const stranger = await t.asMember('gold');
    for (const call of [
      () => t.app.services.goals.logProgress(stranger, goal.id, { amount: 1 }),
      () => t.app.services.goals.setReminder(stranger, goal.id, { reminder: 'daily', reminder_hour: 8, reminder_weekday: 1 }),
      () => t.app.services.goals.remove(stranger, goal.id),
    ]) {
      expect(await refusal(call)).toEqual({ status: 404, message: GOAL_NOT_FOUND });
    }
    expect((await t.app.services.goals.logProgress(owner, goal.id, { amount: 3 })).done).toBe(3);
  });

  it('starts the week on Monday and the month on the 1st in the member’s zone, and counts a streak of days in a row', () => {
    // Sunday 1 March 2026, 03:00 UTC is still Saturday 28 February in Chicago.
    expect(periodsOf(new Date('2026-03-01T03:00:00Z'), 'America/Chicago')).toMatchObject({
      today: '2026-02-28',
      week: '2026-02-23',
      month: '2026-02-01',
    });
    expect(streakOf(['2026-02-28', '2026-02-27', '2026-02-25'], '2026-02-28')).toBe(2);
    // Nothing yet today: the streak still stands from yesterday.
    expect(streakOf(['2026-02-27', '2026-02-26'], '2026-02-28')).toBe(2);
    expect(streakOf(['2026-02-26'], '2026-02-28')).toBe(0);
  });
});
