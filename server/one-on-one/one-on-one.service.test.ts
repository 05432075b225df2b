import { describe, expect, it } from 'vitest';
import type { Availability } from '../../common/one-on-one.contract.ts';
import { ONE_ON_ONE_GOLD_ONLY } from '../../common/policies.ts';
import { expectRefusedToEveryoneBut, lastAuditEntry, refusal, serviceTestApp, SIGN_IN_FIRST } from '../../tests/helpers/service-tests.ts';

// Gold's 1-on-1s: who may book (Gold members) and who may coach (staff with the coaching area).

const t = serviceTestApp();

const week: Availability = {
  time_zone: 'Europe/London',
  accepting: true,
  meeting_url: 'https://meet.example.com/room',
  slot_minutes: 30,
  min_notice_hours: 24,
  windows: [{ weekday: 2, starts: '10:00', ends: '12:00', kind: 'open' }],
  days_off: ['2099-01-06'],
};

describe('1-on-1 coaching', () => {
  it('refuses every member call to visitors and to members below Gold', async () => {
    const calls = (viewer: Parameters<typeof t.app.services.oneOnOne.mine>[0]) => [
      () => t.app.services.oneOnOne.coaches(viewer),
      () => t.app.services.oneOnOne.mine(viewer),
      () => t.app.services.oneOnOne.cancel(viewer, '00000000-0000-4000-8000-000000000000'),
    ];
    for (const call of calls(t.asVisitor())) expect(await refusal(call)).toEqual(SIGN_IN_FIRST);
    for (const tier of ['free', 'bronze', 'silver'] as const) {
      for (const call of calls(await t.asMember(tier)))
        expect(await refusal(call), tier).toEqual({ status: 403, message: ONE_ON_ONE_GOLD_ONLY });
    }
    expect(await t.app.services.oneOnOne.mine(await t.asMember('gold'))).toMatchObject({ upcoming: [] });
  });

  it('keeps each coach’s week to staff, records its changes, and keeps days off still to come', async () => {
    await expectRefusedToEveryoneBut('staff', t, (viewer) => [
      () => t.app.services.oneOnOneCoach.availability(viewer),
      () => t.app.services.oneOnOneCoach.setAvailability(viewer, week),
      () => t.app.services.oneOnOneCoach.bookings(viewer, {}),
    ]);
    const editor = await t.asStaff('editor');
    expect(await t.app.services.oneOnOneCoach.availability(editor)).toMatchObject({ accepting: false, windows: [] });
    const saved = await t.app.services.oneOnOneCoach.setAvailability(editor, { ...week, days_off: ['2001-01-02', '2099-01-06'] });
    expect(saved).toEqual(week);
    expect(await lastAuditEntry(t, { action: 'coaching.availability', target: editor.staff.email })).toBeDefined();
    expect(await t.app.services.oneOnOne.coaches(await t.asMember('gold'))).toContainEqual({
      id: editor.staff.id,
      name: expect.any(String),
    });
  });
});
