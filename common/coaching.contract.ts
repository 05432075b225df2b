import { z } from 'zod';
import { CaptionsChoice, CaptionTracks, StaffCaptions, type Transcript } from './captions.contract.ts';
import type { CaptionLanguage } from './course-kinds.ts';
import { cursorParam, optionalText, requiredText, uuidParam } from './fields.ts';
import { COACHING, TEXT_MAX } from './limits.ts';
import type { AfterQuery, BeforeQuery, Paged } from './paging.ts';
import { TimeZone } from './time-zones.ts';
import { Tier } from './tiers.ts';
import type { Viewer } from './viewer.ts';

// Live group coaching: staff schedule sessions (once, or weekly), members RSVP, add them to their
// calendar, join from shortly before the start, and watch the recordings afterwards. Events (a
// workshop, a meetup; Gold's, as the plans sell them) are scheduled the same way, online or at an
// address; a full session or event keeps a waiting list that moves up when someone gives a place back.

export const COACHING_KINDS = ['session', 'event'] as const;

export const SESSION_NOT_FOUND = 'Coaching session not found';
export const SESSION_FULL = 'This session is full.';
export const SESSION_OVER = 'This session has already started or ended.';
export const SESSION_CANCELLED = 'This session was cancelled.';
export const NOT_FULL = 'There are places left: RSVP instead of waiting.';
export const JOIN_NOT_OPEN = `The join link opens ${COACHING.joinOpensMinutesBefore} minutes before the session starts.`;
/** The join link is for members holding a place: waiting for one, or never asking, is not a place. */
export const JOIN_NEEDS_PLACE = 'Only members with a place can join this session. RSVP first, while places are left.';
export const JOIN_WHILE_WAITING = "You are on the waiting list, so you have no place yet: we'll email you if one opens.";

/** A session as a member sees it. Times are UTC (ISO 8601); pages show them in the member's zone. */
export const SessionView = z.object({
  id: z.string(),
  series_id: z.string(),
  title: z.string(),
  description: z.string(),
  host_name: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  duration_minutes: z.number().int(),
  weekly: z.boolean(),
  kind: z.enum(COACHING_KINDS),
  /** In person: where (shown to members it is for; null to others and for online ones). */
  address: z.string().nullable(),
  min_tier: Tier,
  /** The member's tier does not reach it: shown with the upgrade, nothing else. */
  locked: z.boolean(),
  cancelled: z.boolean(),
  capacity: z.number().int(),
  seats_left: z.number().int(),
  rsvped: z.boolean(),
  /** On the waiting list: a place given back goes to the first waiting, who is told by email. */
  waitlisted: z.boolean(),
  join_opens_at: z.string(),
  /** Only to a member who may join and holds a place (RSVP'd, not waiting), from join_opens_at until the end; null otherwise. */
  join_url: z.string().nullable(),
});
export type SessionView = z.infer<typeof SessionView>;
export const SessionList = z.array(SessionView);

/** A past session's recording and notes, in the recordings library. */
export const RecordingView = z.object({
  id: z.string(),
  title: z.string(),
  host_name: z.string(),
  starts_at: z.string(),
  duration_minutes: z.number().int(),
  min_tier: Tier,
  locked: z.boolean(),
  /** The recording: the session's own video address, or the link staff gave; null when locked. */
  video_url: z.string().nullable(),
  /** The recording is an uploaded video (played here) rather than a link to another site. */
  uploaded: z.boolean(),
  notes: z.string().nullable(),
  /** The recording's captions: each language's file (a <track>, none while locked). */
  captions: CaptionTracks,
});
export type RecordingView = z.infer<typeof RecordingView>;
export const RecordingList = z.array(RecordingView);

export const SessionParams = z.object({ id: uuidParam('Session') });
export const SeriesParams = z.object({ id: uuidParam('Series') });

/** The member's private calendar feed: its address is shown once, when made (only its hash is kept). */
export const CalendarFeedStatus = z.object({ active: z.boolean(), created_at: z.string().nullable() });
export type CalendarFeedStatus = z.infer<typeof CalendarFeedStatus>;
export const CalendarFeedCreated = z.object({ url: z.string(), webcal_url: z.string() });
export type CalendarFeedCreated = z.infer<typeof CalendarFeedCreated>;

export const TimeZoneInput = z.object({ time_zone: TimeZone });

// ---- Staff -----------------------------------------------------------------------------------

const localDate = z.iso.date('Date must be a date (YYYY-MM-DD)');
const localClock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be a time of day, such as 18:00');
const joinUrl = optionalText('Join link', TEXT_MAX.link).refine(
  (value) => value === '' || /^https:\/\/[^\s]+$/.test(value),
  'Join link must start with https:// (the video meeting address)',
);
const description = optionalText('Description', TEXT_MAX.sessionDescription, { multiline: true });
const address = optionalText('Address', TEXT_MAX.eventAddress);

/** A new session, or a weekly series of them: the first start is a date and time in the given zone. */
const SeriesFields = z.object({
  kind: z.enum(COACHING_KINDS, { error: 'Kind must be session or event' }).default('session'),
  title: requiredText('Title', TEXT_MAX.sessionTitle),
  description: description.default(''),
  host_staff_id: uuidParam('Host'),
  date: localDate,
  time: localClock,
  time_zone: TimeZone,
  duration_minutes: z.coerce
    .number({ error: 'Duration must be a number of minutes' })
    .int('Duration must be whole minutes')
    .min(COACHING.minMinutes, `A session lasts at least ${COACHING.minMinutes} minutes`)
    .max(COACHING.maxMinutes, `A session lasts at most ${COACHING.maxMinutes / 60} hours`),
  min_tier: Tier,
  capacity: z.coerce
    .number({ error: 'Capacity must be a number' })
    .int('Capacity must be a whole number')
    .min(1, 'Capacity must be at least 1')
    .max(COACHING.maxCapacity, `Capacity must be at most ${COACHING.maxCapacity}`),
  weekly: z.boolean({ error: 'Weekly must be true or false' }).default(false),
  join_url: joinUrl.default(''),
  address: address.default(''),
});
/** Where members go: a session is online (a join link); an event is online, or in person at an address. */
const PLACE_NEEDED = 'Give a join link (the video meeting address), or, for an event in person, its address';
export const SeriesInput = SeriesFields.superRefine((input, context) => {
  if (input.kind === 'session' && input.address !== '')
    context.addIssue({ code: 'custom', path: ['address'], message: 'Only events take place in person: leave the address empty' });
  if (input.join_url === '' && input.address === '') context.addIssue({ code: 'custom', path: ['join_url'], message: PLACE_NEEDED });
});
export type SeriesInput = z.infer<typeof SeriesInput>;

/** What changes for every session of a series still to come (the time changes per session: move). */
// Fields without their defaults: a field left out keeps what it was.
export const SeriesUpdate = SeriesFields.pick({ title: true, host_staff_id: true, min_tier: true, capacity: true })
  .extend({ description, join_url: joinUrl, address })
  .partial();
export type SeriesUpdate = z.infer<typeof SeriesUpdate>;

/** One session moved: its new start, a date and time in the zone given. */
export const MoveInput = z.object({ date: localDate, time: localClock, time_zone: TimeZone });
export type MoveInput = z.infer<typeof MoveInput>;

/** After the session: an uploaded video or a link (not both), and notes. */
export const RecordingInput = z
  .object({
    recording_file_id: uuidParam('Recording').nullable().default(null),
    recording_url: optionalText('Recording link', TEXT_MAX.link)
      .refine((value) => value === '' || /^https:\/\/[^\s]+$/.test(value), 'Recording link must start with https://')
      .default(''),
    notes: optionalText('Notes', TEXT_MAX.sessionNotes, { multiline: true }).default(''),
    /** The recording's captions: a WebVTT file from the library per language. */
    captions: CaptionsChoice.default([]),
  })
  .refine((input) => !(input.recording_file_id && input.recording_url), {
    message: 'Choose an uploaded video or a link, not both',
    path: ['recording_url'],
  });
export type RecordingInput = z.infer<typeof RecordingInput>;

export const DisplayNameInput = z.object({ display_name: requiredText('Your name', TEXT_MAX.displayName) });

export const StaffSessionView = SessionView.omit({
  locked: true,
  rsvped: true,
  waitlisted: true,
  join_url: true,
  join_opens_at: true,
}).extend({
  host_staff_id: z.string().nullable(),
  time_zone: z.string(),
  join_url: z.string(),
  rsvp_count: z.number().int(),
  waitlist_count: z.number().int(),
  attended_count: z.number().int(),
  recording_file_id: z.string().nullable(),
  recording_url: z.string().nullable(),
  notes: z.string(),
  captions: StaffCaptions,
  series_ended: z.boolean(),
});
export type StaffSessionView = z.infer<typeof StaffSessionView>;
export const StaffSessionList = z.array(StaffSessionView);

export const CoachingHost = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type CoachingHost = z.infer<typeof CoachingHost>;

export const Attendee = z.object({ name: z.string(), email: z.string(), rsvped_at: z.string(), attended: z.boolean() });
export type Attendee = z.infer<typeof Attendee>;

export const StaffSessionsQuery = z.object({
  when: z.enum(['upcoming', 'past'], { error: 'when must be upcoming or past' }).default('upcoming'),
  cursor: cursorParam().optional(),
});
export type StaffSessionsQuery = z.infer<typeof StaffSessionsQuery>;

/** The members' side. */
export interface CoachingService {
  /** Sessions still to come (or under way), soonest first, a page at a time; locked ones too, with the upgrade. */
  upcoming(viewer: Viewer, query?: AfterQuery): Promise<Paged<SessionView>>;
  session(viewer: Viewer, sessionId: string): Promise<SessionView>;
  /** The member's next session they RSVP'd to, for the dashboard; null for none. */
  nextFor(viewer: Viewer): Promise<SessionView | null>;
  rsvp(viewer: Viewer, sessionId: string): Promise<SessionView>;
  /** Gives the place back; the first member waiting who may still join takes it. */
  cancelRsvp(viewer: Viewer, sessionId: string): Promise<SessionView>;
  /** Waits for a place in a full session (409 while places are left: RSVP then). */
  joinWaitlist(viewer: Viewer, sessionId: string): Promise<SessionView>;
  leaveWaitlist(viewer: Viewer, sessionId: string): Promise<SessionView>;
  /** Records the member's attendance and gives the meeting's address, while the link is open, to a member holding a place. */
  join(viewer: Viewer, sessionId: string): Promise<{ url: string }>;
  /** The session as an .ics file, for the member's calendar. */
  calendarFile(viewer: Viewer, sessionId: string): Promise<{ filename: string; body: string }>;
  /** Past sessions with a recording, latest first, a page at a time. */
  recordings(viewer: Viewer, query?: BeforeQuery): Promise<Paged<RecordingView>>;
  /** A recording's transcript in one language, for whom the recording opens. */
  recordingTranscript(viewer: Viewer, sessionId: string, language: CaptionLanguage): Promise<Transcript>;
  feedStatus(viewer: Viewer): Promise<CalendarFeedStatus>;
  /** A new secret address for the member's calendar feed; the old one stops working. */
  resetFeed(viewer: Viewer): Promise<CalendarFeedCreated>;
  stopFeed(viewer: Viewer): Promise<void>;
  /** The feed behind a secret address (the member's sessions), or null for an unknown secret. */
  feed(token: string): Promise<string | null>;
}

/** Staff's side: scheduling, moving and cancelling, recordings. */
export interface CoachingAdminService {
  sessions(viewer: Viewer, query: StaffSessionsQuery): Promise<Paged<StaffSessionView>>;
  session(viewer: Viewer, sessionId: string): Promise<StaffSessionView>;
  attendees(viewer: Viewer, sessionId: string, query?: BeforeQuery): Promise<Paged<Attendee>>;
  /** Staff who may host: every staff account, by the name members see. */
  hosts(viewer: Viewer): Promise<CoachingHost[]>;
  /** The first session of the new series (a weekly one is planned weeks ahead). */
  schedule(viewer: Viewer, input: SeriesInput): Promise<StaffSessionView>;
  /** Changes what every session still to come says; more places go to those waiting. */
  updateSeries(viewer: Viewer, seriesId: string, input: SeriesUpdate): Promise<void>;
  /** Stops a weekly series: its sessions still to come are cancelled, and those who RSVP'd are told. */
  endSeries(viewer: Viewer, seriesId: string): Promise<void>;
  move(viewer: Viewer, sessionId: string, input: MoveInput): Promise<StaffSessionView>;
  cancel(viewer: Viewer, sessionId: string): Promise<StaffSessionView>;
  record(viewer: Viewer, sessionId: string, input: RecordingInput): Promise<StaffSessionView>;
  setDisplayName(viewer: Viewer, name: string): Promise<void>;
}
