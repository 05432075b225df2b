import { z } from 'zod';
import { optionalText, uuidParam } from './fields.ts';
import { ONE_ON_ONE, ONE_ON_ONE_CHANGES, TEXT_MAX } from './limits.ts';
import type { AfterQuery, Paged } from './paging.ts';
import { TimeZone } from './time-zones.ts';
import { Tier } from './tiers.ts';
import type { Viewer } from './viewer.ts';
import { GoalView } from './goals.contract.ts';

// Gold's monthly 1-on-1 coaching: coaches (staff) say when they are free, a Gold member books one
// slot per calendar month, and may move or cancel it up to a day before.

export const BOOKING_NOT_FOUND = '1-on-1 booking not found';
export const COACH_NOT_FOUND = 'Coach not found';
export const SLOT_TAKEN = 'That time was just taken. Please choose another.';
export const NOT_A_FREE_SLOT = 'Choose one of the free times shown for this coach.';
export const TOO_LATE_TO_CHANGE = 'A 1-on-1 can be rescheduled or cancelled up to 24 hours before it starts. Please contact us instead.';
/** Past the member's allowance of changes in a day (ONE_ON_ONE_CHANGES): 429. */
export const tooManyChanges = (hours: number) =>
  `Each change to your 1-on-1 is mailed to your coach, and you have made ${ONE_ON_ONE_CHANGES.max} in the last day. ` +
  `Please try again in ${hours === 1 ? 'an hour' : `${hours} hours`}, or contact us.`;
export const monthTaken = (month: string) =>
  `You already have your 1-on-1 for ${month}. Reschedule that one, or choose a day in another month.`;

const localDate = z.iso.date('Date must be a date (YYYY-MM-DD)');
const localClock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be a time of day, such as 09:00');
const instant = z.iso.datetime({ offset: true, error: 'Choose a time from the list' });

/** A weekly stretch of a coach's week: open for bookings, or a break inside the open hours. */
export const AvailabilityWindow = z
  .object({
    weekday: z.coerce
      .number()
      .int()
      .min(0, 'Weekday must be 0 (Sunday) to 6 (Saturday)')
      .max(6, 'Weekday must be 0 (Sunday) to 6 (Saturday)'),
    starts: localClock,
    ends: localClock,
    kind: z.enum(['open', 'break'], { error: 'A window is open or a break' }),
  })
  .refine((window) => window.starts < window.ends, { message: 'A window ends after it starts', path: ['ends'] });
export type AvailabilityWindow = z.infer<typeof AvailabilityWindow>;

/** When a coach takes 1-on-1s: their zone, weekly windows and breaks, days off, slot length and notice. */
export const Availability = z.object({
  time_zone: TimeZone,
  accepting: z.boolean({ error: 'Accepting must be true or false' }),
  meeting_url: optionalText('Meeting link', TEXT_MAX.link).refine(
    (value) => value === '' || /^https:\/\/[^\s]+$/.test(value),
    'Meeting link must start with https:// (the video meeting address)',
  ),
  slot_minutes: z.coerce
    .number({ error: 'Slot length must be a number of minutes' })
    .int('Slot length must be whole minutes')
    .min(ONE_ON_ONE.slotMinutes.min, `A slot lasts at least ${ONE_ON_ONE.slotMinutes.min} minutes`)
    .max(ONE_ON_ONE.slotMinutes.max, `A slot lasts at most ${ONE_ON_ONE.slotMinutes.max} minutes`),
  min_notice_hours: z.coerce
    .number({ error: 'Notice must be a number of hours' })
    .int('Notice must be whole hours')
    .min(ONE_ON_ONE.minNoticeHours.min, 'Notice cannot be negative')
    .max(ONE_ON_ONE.minNoticeHours.max, `Notice is at most ${ONE_ON_ONE.minNoticeHours.max / 24} days`),
  windows: z.array(AvailabilityWindow).max(ONE_ON_ONE.maxWindows, `At most ${ONE_ON_ONE.maxWindows} windows`),
  days_off: z.array(localDate).max(ONE_ON_ONE.maxDaysOff, `At most ${ONE_ON_ONE.maxDaysOff} days off`),
});
export type Availability = z.infer<typeof Availability>;

const Coach = z.object({ id: z.string(), name: z.string() });

export const CoachList = z.array(Coach);

export const SlotsQuery = z.object({ coach: uuidParam('Coach'), from: localDate.optional() });
export type SlotsQuery = z.infer<typeof SlotsQuery>;

/** A coach's free starts over some days (dates in the member's zone; starts in UTC). */
export const FreeSlots = z.object({
  coach: Coach,
  slot_minutes: z.number(),
  from: z.string(),
  days: z.array(z.object({ date: z.string(), starts: z.array(z.string()) })),
  /** Where the next (and the previous) look starts; null at the end (or the start) of what can be booked. */
  next_from: z.string().nullable(),
  previous_from: z.string().nullable(),
});
export type FreeSlots = z.infer<typeof FreeSlots>;

export const BookingInput = z.object({
  coach_id: uuidParam('Coach'),
  starts_at: instant,
  topic: optionalText('What you want to work on', TEXT_MAX.bookingTopic, { multiline: true }).default(''),
});
export type BookingInput = z.infer<typeof BookingInput>;

export const RescheduleInput = z.object({ starts_at: instant });
export type RescheduleInput = z.infer<typeof RescheduleInput>;

export const BookingParams = z.object({ id: uuidParam('Booking') });

/** A member's booking, as they see it. */
export const BookingView = z.object({
  id: z.string(),
  coach: Coach,
  starts_at: z.string(),
  ends_at: z.string(),
  topic: z.string(),
  /** The coach's video-meeting address. */
  meeting_url: z.string(),
  /** Whether the member may still move or cancel it (until a day before), and until when. */
  can_change: z.boolean(),
  change_until: z.string(),
});
export type BookingView = z.infer<typeof BookingView>;

/** The member's side: their bookings to come, and whether this month's 1-on-1 is taken. */
export const MyOneOnOnes = z.object({
  upcoming: z.array(BookingView),
  /** The calendar month (in the member's zone) of today, and whether a booking in it is held. */
  this_month: z.object({ label: z.string(), booked: z.boolean() }),
});
export type MyOneOnOnes = z.infer<typeof MyOneOnOnes>;

/** A booking as its coach sees it: who, why, and how that member is doing. */
export const CoachBookingView = z.object({
  id: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  topic: z.string(),
  member: z.object({ id: z.string(), name: z.string(), email: z.string(), tier: Tier }),
  progress: z.object({ courses_enrolled: z.number(), courses_completed: z.number(), lessons_completed: z.number() }),
  /** What the member is working towards, and where each goal stands: what a coach prepares the call from. */
  goals: z.array(GoalView),
});
export type CoachBookingView = z.infer<typeof CoachBookingView>;
export const CoachBookingList = z.array(CoachBookingView);

/** Gold members book, move and cancel. */
export interface OneOnOneService {
  coaches(viewer: Viewer): Promise<z.infer<typeof CoachList>>;
  mine(viewer: Viewer): Promise<MyOneOnOnes>;
  freeSlots(viewer: Viewer, query: SlotsQuery): Promise<FreeSlots>;
  book(viewer: Viewer, input: BookingInput): Promise<BookingView>;
  reschedule(viewer: Viewer, bookingId: string, input: RescheduleInput): Promise<BookingView>;
  cancel(viewer: Viewer, bookingId: string): Promise<void>;
  calendarFile(viewer: Viewer, bookingId: string): Promise<{ filename: string; body: string }>;
}

/** Coaches set when they are free and see who booked them. */
export interface OneOnOneCoachService {
  availability(viewer: Viewer): Promise<Availability>;
  setAvailability(viewer: Viewer, input: Availability): Promise<Availability>;
  bookings(viewer: Viewer, query: AfterQuery): Promise<Paged<CoachBookingView>>;
}
