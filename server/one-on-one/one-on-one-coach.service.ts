import { z } from 'zod';
import { GOALS, ONE_ON_ONE, PAGE_SIZE } from '../../common/limits.ts';
import type { Availability, OneOnOneCoachService } from '../../common/one-on-one.contract.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { DEFAULT_TIME_ZONE, localDateOf } from '../../common/time-zones.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { DataAccess } from '../repositories.ts';
import { goalViews } from '../goals/goals.service.ts';

// Coaches' side of the 1-on-1s: when they take them, and who booked them, with how that member is
// doing. Each coach keeps their own week; any staff member with the coaching area may coach.

const StartCursor = z.tuple([TimestampKey, z.uuid()]);

const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const minuteOf = (time: string) => {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return hour * 60 + minute;
};

export function createOneOnOneCoachService(deps: { data: DataAccess }): OneOnOneCoachService {
  const { data } = deps;

  async function availabilityOf(staffId: string): Promise<Availability> {
    const week = await data.oneOnOne.week(staffId, localDateOf(new Date(), 'UTC'));
    if (!week) {
      return {
        time_zone: DEFAULT_TIME_ZONE,
        accepting: false,
        meeting_url: '',
        slot_minutes: ONE_ON_ONE.slotMinutes.standard,
        min_notice_hours: ONE_ON_ONE.minNoticeHours.standard,
        windows: [],
        days_off: [],
      };
    }
    return {
      time_zone: week.timeZone,
      accepting: week.accepting,
      meeting_url: week.meetingUrl,
      slot_minutes: week.slotMinutes,
      min_notice_hours: week.minNoticeHours,
      windows: week.windows.map((window) => ({
        weekday: window.weekday,
        starts: clock(window.startsMinute),
        ends: clock(window.endsMinute),
        kind: window.kind,
      })),
      days_off: week.daysOffList,
    };
  }

  return {
    async availability(viewer) {
      return availabilityOf(requireStaffArea(viewer, 'coaching').id);
    },

    async setAvailability(viewer, input) {
      const staff = requireStaffArea(viewer, 'coaching');
      await data.transaction(async (tx) => {
        await tx.oneOnOne.saveWeek(
          staff.id,
          {
            timeZone: input.time_zone,
            accepting: input.accepting,
            meetingUrl: input.meeting_url,
            slotMinutes: input.slot_minutes,
            minNoticeHours: input.min_notice_hours,
            windows: input.windows.map((window) => ({
              weekday: window.weekday,
              startsMinute: minuteOf(window.starts),
              endsMinute: minuteOf(window.ends),
              kind: window.kind,
            })),
            daysOff: input.days_off,
          },
          // Days off already past (in the coach's zone) are let go.
          localDateOf(new Date(), input.time_zone),
        );
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'coaching.availability',
          target: staff.email,
          oldValue: null,
          newValue: { accepting: input.accepting, windows: input.windows.length, days_off: input.days_off.length },
        });
      });
      return availabilityOf(staff.id);
    },

    async bookings(viewer, query) {
      const staff = requireStaffArea(viewer, 'coaching');
      const from = query.after ? decodeCursor(query.after, StartCursor) : undefined;
      const rows = await data.oneOnOne.forCoach(staff.id, new Date(), PAGE_SIZE.memberList + 1, from && { startsAt: from[0], id: from[1] });
      // Each member's goals, as they stand today in their own zone (a member has a handful).
      const goalsOf = new Map(
        await Promise.all(
          [...new Map(rows.slice(0, PAGE_SIZE.memberList).map((row) => [row.member.id, row.memberZone])).entries()].map(
            async ([memberId, zone]) =>
              [
                memberId,
                await goalViews(data, await data.goals.listOf(memberId, GOALS.maxActive), memberId, zone ?? DEFAULT_TIME_ZONE),
              ] as const,
          ),
        ),
      );
      return pageOf(
        rows,
        PAGE_SIZE.memberList,
        (row) => [row.startKey, row.booking.id],
        (row) => ({
          id: row.booking.id,
          starts_at: row.booking.startsAt.toISOString(),
          ends_at: row.booking.endsAt.toISOString(),
          topic: row.booking.topic,
          member: row.member,
          progress: {
            courses_enrolled: row.coursesEnrolled,
            courses_completed: row.coursesCompleted,
            lessons_completed: row.lessonsCompleted,
          },
          goals: goalsOf.get(row.member.id) ?? [],
        }),
      );
    },
  };
}
