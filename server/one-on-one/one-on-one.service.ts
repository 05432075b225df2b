import { badRequest, conflict, forbidden, notFound, ServiceError } from '../../common/errors.ts';
import { ONE_ON_ONE, ONE_ON_ONE_CHANGES } from '../../common/limits.ts';
import {
  BOOKING_NOT_FOUND,
  COACH_NOT_FOUND,
  monthTaken,
  NOT_A_FREE_SLOT,
  SLOT_TAKEN,
  TOO_LATE_TO_CHANGE,
  tooManyChanges,
  type BookingView,
  type OneOnOneService,
} from '../../common/one-on-one.contract.ts';
import { mayBookOneOnOne, mayChangeBooking, ONE_ON_ONE_GOLD_ONLY, requireMember } from '../../common/policies.ts';
import { addDays, DEFAULT_TIME_ZONE, formatInZone, instantOf, localDateOf } from '../../common/time-zones.ts';
import type { SignedInMember, Viewer } from '../../common/viewer.ts';
import { calendarOf, type CalendarEvent } from '../coaching/ics.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import { freeSlots, isFreeSlot, type TimeRange } from './free-slots.ts';
import type { BookingRow } from './one-on-one.repository.ts';

// Gold members' monthly 1-on-1: free slots from the coach's week, one live booking per calendar
// month, moved or cancelled up to a day before. The database has the last word when requests race
// (an exclusion constraint on the coach's time, a unique index on the member's month): the loser
// gets a 409 that says why.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const NO_OVERLAP = 'one_on_one_bookings_no_overlap';
const ONE_PER_MONTH = 'one_on_one_bookings_member_month_idx';
type Change = 'booked' | 'moved' | 'cancelled';
/** The mail the member gets of each change (their coach gets its own): the outbox counts their changes. */
const memberMailOf = (change: Change) => `one-on-one-${change}`;

const zoneOf = (member: { timeZone: string | null }) => member.timeZone ?? DEFAULT_TIME_ZONE;
/** The first day of the instant's calendar month in the zone: the month a booking counts for. */
const monthOf = (instant: Date, zone: string) => `${localDateOf(instant, zone).slice(0, 7)}-01`;
const monthLabel = (month: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}T12:00:00Z`));
/** Midnight starting a date in the zone. */
const startOfDate = (date: string, zone: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return instantOf({ year, month, day, hour: 0, minute: 0 }, zone);
};

function bookingView(row: BookingRow, now: Date): BookingView {
  const { booking } = row;
  return {
    id: booking.id,
    coach: { id: booking.coachId, name: row.coachName },
    starts_at: booking.startsAt.toISOString(),
    ends_at: booking.endsAt.toISOString(),
    topic: booking.topic,
    meeting_url: row.meetingUrl ?? '',
    can_change: mayChangeBooking(booking, now),
    change_until: new Date(booking.startsAt.getTime() - ONE_ON_ONE.changeUntilMs).toISOString(),
  };
}

function bookingEvent(row: BookingRow, withWhom: string, pageUrl: string): CalendarEvent {
  const { booking } = row;
  const meetingUrl = row.meetingUrl ?? '';
  return {
    uid: `one-on-one-${booking.id}@realtypocket`,
    sequence: booking.revision,
    start: booking.startsAt,
    end: booking.endsAt,
    summary: `1-on-1 coaching with ${withWhom}`,
    description: [booking.topic && `To work on: ${booking.topic}`, meetingUrl && `Join: ${meetingUrl}`, `Details: ${pageUrl}`]
      .filter(Boolean)
      .join('\n\n'),
    url: pageUrl,
    location: meetingUrl || 'Online',
    cancelled: booking.cancelledAt !== null,
  };
}

export function createOneOnOneService(deps: { data: DataAccess; mailer: Mailer }): OneOnOneService {
  const { data, mailer } = deps;
  const pageUrl = () => mailer.link('/coaching/one-on-one');

  function requireGold(viewer: Viewer): SignedInMember {
    const member = requireMember(viewer);
    if (!mayBookOneOnOne(viewer)) throw forbidden(ONE_ON_ONE_GOLD_ONLY);
    return member;
  }

  /** The coach's week, if they take 1-on-1s. */
  async function coachWeek(coachId: string) {
    const week = await data.oneOnOne.week(coachId, addDays(new Date().toISOString().slice(0, 10), -1));
    if (!week || !week.accepting) throw notFound(COACH_NOT_FOUND);
    return week;
  }

  /** The member's own live booking. */
  async function ownBooking(member: SignedInMember, bookingId: string): Promise<BookingRow> {
    const row = await data.oneOnOne.find(bookingId);
    if (!row || row.booking.memberId !== member.id || row.booking.cancelledAt) throw notFound(BOOKING_NOT_FOUND);
    return row;
  }

  /** The slot at this start, if the coach's week offers it; a 409 when someone holds it. */
  async function slotAt(coachId: string, startsAt: Date, exceptBooking?: string): Promise<TimeRange> {
    const week = await coachWeek(coachId);
    const now = new Date();
    const offered = isFreeSlot(week, [], startsAt, now);
    if (!offered) throw badRequest(NOT_A_FREE_SLOT, 'starts_at');
    const taken = await data.oneOnOne.bookedRanges(coachId, offered.startsAt, offered.endsAt, exceptBooking);
    if (taken.length > 0) throw conflict(SLOT_TAKEN);
    return offered;
  }

  /** The database's refusal of a race's loser, as the 409 it means. */
  function refusalOf(error: unknown, month: string): never {
    const constraint = data.violatedConstraint(error);
    if (constraint === NO_OVERLAP) throw conflict(SLOT_TAKEN);
    if (constraint === ONE_PER_MONTH) throw conflict(monthTaken(monthLabel(month)));
    throw error;
  }

  /**
   * Refuses a booking or a move past the member's allowance (ONE_ON_ONE_CHANGES), as each one mails
   * their coach. Inside the change's transaction, under the member's lock: changes sent at once count one by one.
   */
  async function refuseTooManyChanges(tx: Repositories, member: SignedInMember) {
    await tx.oneOnOne.lockMember(member.id);
    const { max, windowMs } = ONE_ON_ONE_CHANGES;
    const latest = await tx.oneOnOne.changesSince(member.id, new Date(Date.now() - windowMs), max);
    // The oldest of the latest `max` changes: once it is a day old, a change is free again.
    const freedFrom = latest[max - 1];
    if (!freedFrom) return;
    throw new ServiceError(429, tooManyChanges(Math.max(1, Math.ceil((freedFrom.getTime() + windowMs - Date.now()) / HOUR_MS))));
  }

  /** Notes the change and mails the member (with the calendar file) and the coach about it, in its transaction. */
  async function tell(tx: Repositories, member: SignedInMember, bookingId: string, change: Change, before?: Date) {
    await tx.oneOnOne.noteChange(member.id, bookingId, change);
    const row = (await tx.oneOnOne.find(bookingId))!;
    const coach = await tx.oneOnOne.profile(row.booking.coachId);
    const memberZone = zoneOf(member);
    const coachZone = coach?.timeZone ?? DEFAULT_TIME_ZONE;
    const common = { change, topic: row.booking.topic, pageUrl: pageUrl() };
    await mailer.queue(
      tx,
      memberMailOf(change),
      member.email,
      await mailTemplates.oneOnOneForMember({
        ...common,
        name: member.name,
        with: row.coachName,
        when: formatInZone(row.booking.startsAt, memberZone),
        before: before && formatInZone(before, memberZone),
      }),
      { calendar: calendarOf([bookingEvent(row, row.coachName, pageUrl())]) },
    );
    await mailer.queue(
      tx,
      `one-on-one-${change}-coach`,
      row.coachEmail,
      await mailTemplates.oneOnOneForCoach({
        ...common,
        pageUrl: mailer.link('/admin/dashboard/coaching'),
        name: row.coachName,
        with: member.name,
        when: formatInZone(row.booking.startsAt, coachZone),
        before: before && formatInZone(before, coachZone),
      }),
      { calendar: calendarOf([bookingEvent(row, member.name, mailer.link('/admin/dashboard/coaching'))]) },
    );
  }

  async function viewOf(bookingId: string): Promise<BookingView> {
    return bookingView((await data.oneOnOne.find(bookingId))!, new Date());
  }

  return {
    async coaches(viewer) {
      requireGold(viewer);
      return data.oneOnOne.coaches();
    },

    async mine(viewer) {
      const member = requireGold(viewer);
      const now = new Date();
      const thisMonth = monthOf(now, zoneOf(member));
      const [rows, booked] = await Promise.all([
        data.oneOnOne.upcomingOf(member.id, now, ONE_ON_ONE.upcomingShown),
        data.oneOnOne.holdsMonth(member.id, thisMonth),
      ]);
      return { upcoming: rows.map((row) => bookingView(row, now)), this_month: { label: monthLabel(thisMonth), booked } };
    },

    async freeSlots(viewer, query) {
      const member = requireGold(viewer);
      const zone = zoneOf(member);
      const week = await coachWeek(query.coach);
      const now = new Date();
      const today = localDateOf(now, zone);
      const lastDay = localDateOf(new Date(now.getTime() + ONE_ON_ONE.bookAheadDays * DAY_MS), zone);
      const from = query.from && query.from > today ? (query.from > lastDay ? lastDay : query.from) : today;
      const until = addDays(from, ONE_ON_ONE.daysShown);
      const [start, end] = [startOfDate(from, zone), startOfDate(until, zone)];
      const booked = await data.oneOnOne.bookedRanges(query.coach, start, end);
      const days = new Map<string, string[]>();
      for (const slot of freeSlots(week, booked, start, end, now)) {
        const date = localDateOf(slot.startsAt, zone);
        days.set(date, [...(days.get(date) ?? []), slot.startsAt.toISOString()]);
      }
      const previous = addDays(from, -ONE_ON_ONE.daysShown);
      return {
        coach: { id: query.coach, name: (await data.oneOnOne.coachName(query.coach)) ?? '' },
        slot_minutes: week.slotMinutes,
        from,
        days: [...days].map(([date, starts]) => ({ date, starts })),
        next_from: until <= lastDay ? until : null,
        previous_from: from > today ? (previous > today ? previous : today) : null,
      };
    },

    async book(viewer, input) {
      const member = requireGold(viewer);
      const slot = await slotAt(input.coach_id, new Date(input.starts_at));
      const month = monthOf(slot.startsAt, zoneOf(member));
      if (await data.oneOnOne.holdsMonth(member.id, month)) throw conflict(monthTaken(monthLabel(month)));
      const bookingId = await data
        .transaction(async (tx) => {
          await refuseTooManyChanges(tx, member);
          const id = await tx.oneOnOne.insert({ coachId: input.coach_id, memberId: member.id, ...slot, month, topic: input.topic });
          await tell(tx, member, id, 'booked');
          return id;
        })
        .catch((error: unknown) => refusalOf(error, month));
      mailer.nudge();
      return viewOf(bookingId);
    },

    async reschedule(viewer, bookingId, input) {
      const member = requireGold(viewer);
      const row = await ownBooking(member, bookingId);
      if (!mayChangeBooking(row.booking, new Date())) throw conflict(TOO_LATE_TO_CHANGE);
      const slot = await slotAt(row.booking.coachId, new Date(input.starts_at), bookingId);
      const month = monthOf(slot.startsAt, zoneOf(member));
      if (month !== row.booking.month && (await data.oneOnOne.holdsMonth(member.id, month))) throw conflict(monthTaken(monthLabel(month)));
      await data
        .transaction(async (tx) => {
          await refuseTooManyChanges(tx, member);
          await tx.oneOnOne.move(bookingId, { ...slot, month });
          await tell(tx, member, bookingId, 'moved', row.booking.startsAt);
        })
        .catch((error: unknown) => refusalOf(error, month));
      mailer.nudge();
      return viewOf(bookingId);
    },

    async cancel(viewer, bookingId) {
      const member = requireGold(viewer);
      const row = await ownBooking(member, bookingId);
      if (!mayChangeBooking(row.booking, new Date())) throw conflict(TOO_LATE_TO_CHANGE);
      await data.transaction(async (tx) => {
        await tx.oneOnOne.cancel(bookingId);
        await tell(tx, member, bookingId, 'cancelled');
      });
      mailer.nudge();
    },

    async calendarFile(viewer, bookingId) {
      const member = requireGold(viewer);
      const row = await ownBooking(member, bookingId);
      return { filename: '1-on-1-coaching.ics', body: calendarOf([bookingEvent(row, row.coachName, pageUrl())]) };
    },
  };
}
