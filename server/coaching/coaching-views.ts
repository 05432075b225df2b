import { CAPTION_LANGUAGES, type CaptionLanguage } from '../../common/course-kinds.ts';
import type { RecordingView, SessionView, StaffSessionView } from '../../common/coaching.contract.ts';
import { COACHING } from '../../common/limits.ts';
import { mayEnterSession, mayJoinSession, mayWatchRecording, type Asker } from '../../common/policies.ts';
import { higherTier } from '../../common/tiers.ts';
import type { RecordingRow, SessionRow } from './coaching.repository.ts';
import type { CalendarEvent } from './ics.ts';

// How a session shows: to a member (locked when their tier does not reach it; the join path only to
// those holding a place, while the link is open), to staff, in the recordings library, and in a calendar.

const endOf = (row: SessionRow) => new Date(row.session.startsAt.getTime() + row.session.durationMinutes * 60_000);

/** The fields every view of a session shares. */
function basics(row: SessionRow) {
  const { session, series } = row;
  return {
    id: session.id,
    series_id: series.id,
    title: series.title,
    description: series.description,
    host_name: series.hostName,
    starts_at: session.startsAt.toISOString(),
    ends_at: endOf(row).toISOString(),
    duration_minutes: session.durationMinutes,
    weekly: series.weekly,
    kind: series.kind,
    min_tier: series.minTier,
    cancelled: session.cancelledAt !== null,
    capacity: series.capacity,
    seats_left: Math.max(0, series.capacity - row.rsvpCount),
  };
}

/** The facts the policies read about a session. */
export const policyFacts = (row: SessionRow) => ({
  minTier: row.series.minTier,
  startsAt: row.session.startsAt,
  durationMinutes: row.session.durationMinutes,
  cancelledAt: row.session.cancelledAt,
});

/** Where the member stands: a place, or a turn on the waiting list. */
export interface MemberPlace {
  rsvped: boolean;
  waitlisted: boolean;
}

export function sessionView(row: SessionRow, asker: Asker, place: MemberPlace, now: Date): SessionView {
  const facts = policyFacts(row);
  const opens = mayJoinSession(asker, facts);
  return {
    ...basics(row),
    address: opens && row.series.address ? row.series.address : null,
    locked: !opens,
    ...place,
    join_opens_at: new Date(row.session.startsAt.getTime() - COACHING.joinOpensMinutesBefore * 60_000).toISOString(),
    // The site's own address, which records the member's attendance on the way to the meeting.
    join_url: row.series.joinUrl && mayEnterSession(asker, facts, place, now) ? `/api/coaching/sessions/${row.session.id}/join` : null,
  };
}

/** A recording's captions as read with it: their languages and files. */
export interface RecordingCaptionsRow {
  language: CaptionLanguage;
  fileId: string;
  filename: string;
}

export function staffSessionView(row: SessionRow, captions: readonly RecordingCaptionsRow[] = []): StaffSessionView {
  const { session, series } = row;
  return {
    ...basics(row),
    host_staff_id: series.hostStaffId,
    time_zone: series.timeZone,
    join_url: series.joinUrl,
    address: series.address || null,
    rsvp_count: row.rsvpCount,
    waitlist_count: row.waitlistCount,
    attended_count: row.attendedCount,
    recording_file_id: session.recordingFileId,
    recording_url: session.recordingUrl,
    notes: session.notes,
    captions: captions.map((each) => ({ language: each.language, file_id: each.fileId, name: each.filename })),
    series_ended: series.endedAt !== null,
  };
}

export function recordingView(row: RecordingRow, asker: Asker, captions: readonly RecordingCaptionsRow[] = []): RecordingView {
  const { session, series } = row;
  const uploaded = session.recordingFileId !== null;
  const file = uploaded ? { accessTier: row.recordingFileTier } : null;
  const opens = mayWatchRecording(asker, { minTier: series.minTier, file });
  return {
    id: session.id,
    title: series.title,
    host_name: series.hostName,
    starts_at: session.startsAt.toISOString(),
    duration_minutes: session.durationMinutes,
    // The plan to upgrade to: the session's, or the video file's own when it asks more.
    min_tier: file?.accessTier ? higherTier(series.minTier, file.accessTier) : series.minTier,
    locked: !opens,
    video_url: opens ? (uploaded ? `/api/coaching/recordings/${session.id}/video` : session.recordingUrl) : null,
    uploaded,
    notes: opens ? session.notes : null,
    // Captions open where the recording opens.
    captions: captions.map((each) => ({
      language: each.language,
      label: CAPTION_LANGUAGES[each.language],
      url: opens ? `/api/coaching/recordings/${session.id}/captions/${each.language}` : null,
    })),
  };
}

/**
 * The sessions as calendar events, for this asker: only those they may join (the policy of the API's
 * session view and `.ics` download), so neither a feed nor a file ever carries the address of an
 * event their plan no longer reaches. The join link itself stays on the session page, behind the
 * same policy; a calendar only names the page.
 */
export function calendarEventsOf(rows: SessionRow[], asker: Asker, pageUrl: (sessionId: string) => string): CalendarEvent[] {
  return rows.filter((row) => mayJoinSession(asker, policyFacts(row))).map((row) => calendarEvent(row, pageUrl(row.session.id)));
}

function calendarEvent(row: SessionRow, pageUrl: string): CalendarEvent {
  const { session, series } = row;
  return {
    uid: `coaching-${session.id}@realtypocket`,
    sequence: session.revision,
    start: session.startsAt,
    end: endOf(row),
    summary: series.title,
    description: [
      series.kind === 'event' ? `An event with ${series.hostName}.` : `Live coaching with ${series.hostName}.`,
      series.description,
      series.joinUrl ? `The join link appears on ${pageUrl} ${COACHING.joinOpensMinutesBefore} minutes before the start.` : pageUrl,
    ]
      .filter(Boolean)
      .join('\n\n'),
    url: pageUrl,
    location: series.address || 'Online',
    cancelled: session.cancelledAt !== null,
  };
}
