import { describe, expect, it } from 'vitest';
import type { Availability } from '../../common/one-on-one.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import { authoredCourse, expectRefusedToEveryoneBut, lastAuditEntry, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// Coaches' side of the 1-on-1s: each coach keeps their own week (any staff member with the coaching
// area), and sees who booked them, with how that member is doing.

const t = serviceTestApp();
const coachSide = () => t.app.services.oneOnOneCoach;

/** Every day, 09:00 to 17:00 UTC in hour slots, a day's notice. */
const everyDay: Availability = {
  time_zone: 'UTC',
  accepting: true,
  meeting_url: 'https://meet.example.com/coach',
  slot_minutes: 60,
  min_notice_hours: 24,
  windows: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, starts: '09:00', ends: '17:00', kind: 'open' as const })),
  days_off: [],
};

/** The first free start the member is offered with this coach. */
async function firstFreeStart(member: Viewer, coachId: string) {
  const slots = await t.app.services.oneOnOne.freeSlots(member, { coach: coachId });
  return slots.days[0]!.starts[0]!;
}

describe('a coach’s week', () => {
  it('is kept to staff, and starts closed with the standard slot and notice', async () => {
    await expectRefusedToEveryoneBut('staff', t, (viewer) => [
      () => coachSide().availability(viewer),
      () => coachSide().setAvailability(viewer, everyDay),
      () => coachSide().bookings(viewer, {}),
    ]);
    expect(await coachSide().availability(await t.asStaff('owner'))).toEqual({
      time_zone: 'America/New_York',
      accepting: false,
      meeting_url: '',
      slot_minutes: 45,
      min_notice_hours: 24,
      windows: [],
      days_off: [],
    });
  });

  it('keeps each coach’s own week, with breaks and the days off still to come, and records each change', async () => {
    const [first, second] = [await t.asStaff('editor'), await t.asStaff('owner')];
    const week: Availability = {
      ...everyDay,
      time_zone: 'Europe/Paris',
      windows: [
        { weekday: 1, starts: '08:30', ends: '12:45', kind: 'open' },
        { weekday: 1, starts: '10:00', ends: '10:30', kind: 'break' },
      ],
      days_off: ['2001-05-01', '2099-05-01'],
    };
    expect(await coachSide().setAvailability(first, week)).toEqual({ ...week, days_off: ['2099-05-01'] });
    expect((await coachSide().availability(second)).accepting).toBe(false);
    expect(await lastAuditEntry(t, { action: 'coaching.availability', target: first.staff.email })).toMatchObject({
      actorEmail: first.staff.email,
      newValue: { accepting: true, windows: 2, days_off: 2 },
    });
    // Saved again, the week is replaced as a whole.
    expect((await coachSide().setAvailability(first, { ...week, windows: [], accepting: false })).windows).toEqual([]);
  });
});

describe('a coach’s bookings', () => {
  it('lists each coach’s own bookings still to come, with the member and how they are doing', async () => {
    const [coach, otherCoach] = [await t.asStaff('editor'), await t.asStaff('editor')];
    await coachSide().setAvailability(coach, everyDay);
    const member = await t.asMember('gold', { name: 'Gail Gold' });
    const course = await authoredCourse(t, { title: 'Two Lessons' }, [{ title: 'One' }, { title: 'Two' }]);
    await t.app.services.learning.enrol(member, course.course.id);
    await t.app.services.learning.completeLesson(member, course.lessons[0]!.id);

    const startsAt = await firstFreeStart(member, coach.staff.id);
    await t.app.services.oneOnOne.book(member, { coach_id: coach.staff.id, starts_at: startsAt, topic: 'My first listing' });

    const booked = await coachSide().bookings(coach, {});
    expect(booked.items).toEqual([
      {
        id: expect.any(String),
        starts_at: startsAt,
        ends_at: new Date(new Date(startsAt).getTime() + 60 * 60_000).toISOString(),
        topic: 'My first listing',
        member: { id: member.member.id, name: 'Gail Gold', email: member.member.email, tier: 'gold' },
        progress: { courses_enrolled: 1, courses_completed: 0, lessons_completed: 1 },
        // No goals set yet: the coach sees none.
        goals: [],
      },
    ]);
    expect((await coachSide().bookings(otherCoach, {})).items).toEqual([]);

    // A booking the member cancels leaves the coach's list.
    await t.app.services.oneOnOne.cancel(member, booked.items[0]!.id);
    expect((await coachSide().bookings(coach, {})).items).toEqual([]);
  });
});
