import { z } from 'zod';
import {
  SESSION_NOT_FOUND,
  type CoachingAdminService,
  type CoachingHost,
  type SeriesInput,
  type StaffSessionView,
} from '../../common/coaching.contract.ts';
import { badRequest, conflict, notFound } from '../../common/errors.ts';
import { NOTIFICATION_BODY_MAX, COACHING, PAGE_SIZE, STREAM_BATCH } from '../../common/limits.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { higherTier, type Tier } from '../../common/tiers.ts';
import { addLocalDays, DEFAULT_TIME_ZONE, formatInZone, instantOf, type LocalTime } from '../../common/time-zones.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import { announce } from '../notifications/notification-jobs.ts';
import type { SessionRow } from './coaching.repository.ts';
import { staffSessionView } from './coaching-views.ts';
import { readCaptions } from '../files/captions.ts';
import type { FileStorage } from '../files/storage.ts';
import { fillFromWaitlist } from './waitlist.ts';

// Staff's side of live coaching: scheduling (once or weekly), moving and cancelling single sessions,
// recordings and notes. Every change is in the activity log; a new time or a cancellation is mailed
// to those who RSVP'd, in the same transaction as the change.

const StartCursor = z.tuple([TimestampKey, z.uuid()]);
const AttendeeCursor = z.tuple([TimestampKey, z.uuid()]);
const WEEK_DAYS = 7;

/** The name members see for a staff member: the one they chose, else their address's first part. */
const nameOf = (host: { email: string; displayName: string }) => host.displayName || host.email.split('@')[0]!;

/** "2026-12-01" and "18:00" as a wall-clock time. */
function wallClock(date: string, time: string): LocalTime {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { year, month, day, hour, minute };
}

/** The slots of a weekly series from `first` until the planning horizon (or just `first` for a single session). */
export function slotsFrom(first: Date, series: { weekly: boolean; timeZone: string; durationMinutes: number }, until: Date) {
  const slots = [{ plannedFor: first, durationMinutes: series.durationMinutes }];
  if (!series.weekly) return slots;
  for (let next = addLocalDays(first, WEEK_DAYS, series.timeZone); next <= until; next = addLocalDays(next, WEEK_DAYS, series.timeZone)) {
    slots.push({ plannedFor: next, durationMinutes: series.durationMinutes });
  }
  return slots;
}

/** How far ahead weekly series are planned, from now. */
export const planningHorizon = (now: Date) => new Date(now.getTime() + COACHING.weeksAhead * WEEK_DAYS * 24 * 60 * 60 * 1000);

export function createCoachingAdminService(deps: {
  data: DataAccess;
  mailer: Mailer;
  /** Reads a captions file from the file store (a recording's cues are kept for its transcript). */
  storage: Pick<FileStorage, 'get'>;
}): CoachingAdminService {
  const { data, mailer } = deps;

  async function sessionRow(sessionId: string): Promise<SessionRow> {
    const row = await data.coaching.find(sessionId);
    if (!row) throw notFound(SESSION_NOT_FOUND);
    return row;
  }

  /** Staff's view of these sessions, each with its recording's captions. */
  async function staffViews(rows: SessionRow[]): Promise<StaffSessionView[]> {
    const captions = await data.coaching.recordingCaptionsOf(rows.map((row) => row.session.id));
    return rows.map((row) =>
      staffSessionView(
        row,
        captions.filter((each) => each.sessionId === row.session.id),
      ),
    );
  }

  /** Staff's view of one session, read again. */
  async function staffView(sessionId: string): Promise<StaffSessionView> {
    const [view] = await staffViews([await sessionRow(sessionId)]);
    return view!;
  }

  async function host(hostId: string): Promise<CoachingHost> {
    const found = (await data.coaching.hosts()).find((each) => each.id === hostId);
    if (!found) throw badRequest('Choose a host from the staff list.', 'host_staff_id');
    return { id: found.id, email: found.email, name: nameOf(found) };
  }

  /** A start given as a date and time in a zone, which must still be to come. */
  function futureStart(input: { date: string; time: string; time_zone: string }): Date {
    const start = instantOf(wallClock(input.date, input.time), input.time_zone);
    if (start.getTime() <= Date.now()) throw badRequest('Choose a start in the future.', 'date');
    return start;
  }

  const MAIL_KIND = {
    coachingMoved: 'coaching-moved',
    coachingChanged: 'coaching-changed',
    coachingCancelled: 'coaching-cancelled',
  } as const;

  /**
   * Mails everyone who RSVP'd to the session (a batch at a time), in the transaction of the change;
   * a cancellation reaches those on its waiting list too.
   */
  async function tellRsvped(tx: Repositories, row: SessionRow, change: keyof typeof MAIL_KIND, startsAt: Date) {
    const pageUrl = change === 'coachingCancelled' ? mailer.link('/coaching') : mailer.link('/coaching', { session: row.session.id });
    const lists = change === 'coachingCancelled' ? (['rsvpedMembers', 'waitingMembers'] as const) : (['rsvpedMembers'] as const);
    for (const list of lists) {
      for (let last: string | undefined; ;) {
        const batch = await tx.coaching[list](row.session.id, STREAM_BATCH, last);
        for (const member of batch) {
          const when = formatInZone(startsAt, member.timeZone ?? DEFAULT_TIME_ZONE);
          await mailer.queue(
            tx,
            MAIL_KIND[change],
            member.email,
            await mailTemplates[change]({ name: member.name, title: row.series.title, when, pageUrl }),
          );
        }
        if (batch.length < STREAM_BATCH) break;
        last = batch.at(-1)!.id;
      }
    }
  }

  async function cancelSession(tx: Repositories, row: SessionRow) {
    await tx.coaching.reviseSession(row.session.id, { cancelledAt: new Date() });
    await tellRsvped(tx, row, 'coachingCancelled', row.session.startsAt);
  }

  return {
    async sessions(viewer, query) {
      requireStaffArea(viewer, 'coaching');
      const from = query.cursor ? decodeCursor(query.cursor, StartCursor) : undefined;
      const rows = await data.coaching.forStaff(
        query.when,
        new Date(),
        PAGE_SIZE.staffList + 1,
        from && { startsAt: from[0], id: from[1] },
      );
      const page = pageOf(
        rows,
        PAGE_SIZE.staffList,
        (row) => [row.startKey, row.session.id],
        (row) => row,
      );
      return { ...page, items: await staffViews(page.items) };
    },

    async session(viewer, sessionId) {
      requireStaffArea(viewer, 'coaching');
      return staffView(sessionId);
    },

    async attendees(viewer, sessionId, query = {}) {
      requireStaffArea(viewer, 'coaching');
      await sessionRow(sessionId);
      const from = query.before ? decodeCursor(query.before, AttendeeCursor) : undefined;
      const rows = await data.coaching.attendees(sessionId, PAGE_SIZE.staffList + 1, from && { rsvpedAt: from[0], memberId: from[1] });
      return pageOf(
        rows,
        PAGE_SIZE.staffList,
        (row) => [row.rsvpedKey, row.memberId],
        (row) => ({ name: row.name, email: row.email, rsvped_at: row.rsvpedAt.toISOString(), attended: row.attended }),
      );
    },

    async hosts(viewer) {
      requireStaffArea(viewer, 'coaching');
      return (await data.coaching.hosts()).map((each) => ({ id: each.id, email: each.email, name: nameOf(each) }));
    },

    async schedule(viewer, input: SeriesInput) {
      const staff = requireStaffArea(viewer, 'coaching');
      const chosen = await host(input.host_staff_id);
      const start = futureStart(input);
      const firstId = await data.transaction(async (tx) => {
        const series = await tx.coaching.insertSeries({
          title: input.title,
          description: input.description,
          hostStaffId: chosen.id,
          hostName: chosen.name,
          timeZone: input.time_zone,
          durationMinutes: input.duration_minutes,
          minTier: input.min_tier,
          capacity: input.capacity,
          weekly: input.weekly,
          kind: input.kind,
          address: input.address,
          joinUrl: input.join_url,
          createdBy: staff.email,
        });
        const planned = await tx.coaching.planSessions(series.id, slotsFrom(start, series, planningHorizon(new Date())));
        // Every member the session is for hears of it, once per series (the minute job hands it out).
        await announce(tx, {
          kind: 'session',
          groupKey: `session:${series.id}`,
          title: `${input.kind === 'event' ? 'New event' : input.weekly ? 'New weekly live session' : 'New live session'}: ${input.title}`,
          body: `${formatInZone(start, input.time_zone)} with ${chosen.name}. RSVP to keep your place.`,
          url: `/coaching?session=${planned[0]!.id}`,
          requiredTier: input.min_tier,
        });
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'coaching.schedule',
          target: input.title,
          oldValue: null,
          newValue: { ...input, sessions: planned.length },
        });
        return planned[0]!.id;
      });
      return staffView(firstId);
    },

    async updateSeries(viewer, seriesId, input) {
      const staff = requireStaffArea(viewer, 'coaching');
      const before = await data.coaching.findSeries(seriesId);
      if (!before) throw notFound('Coaching series not found');
      const chosen = input.host_staff_id ? await host(input.host_staff_id) : undefined;
      if ((input.join_url ?? before.joinUrl) === '' && (input.address ?? before.address) === '')
        throw badRequest('Give a join link (the video meeting address), or, for an event in person, its address.', 'join_url');
      if (before.kind === 'session' && input.address)
        throw badRequest('Only events take place in person: leave the address empty.', 'address');
      await data.transaction(async (tx) => {
        await tx.coaching.updateSeries(seriesId, {
          ...(input.title !== undefined && { title: input.title }),
          ...(input.description !== undefined && { description: input.description }),
          ...(chosen && { hostStaffId: chosen.id, hostName: chosen.name }),
          ...(input.min_tier !== undefined && { minTier: input.min_tier }),
          ...(input.capacity !== undefined && { capacity: input.capacity }),
          ...(input.join_url !== undefined && { joinUrl: input.join_url }),
          ...(input.address !== undefined && { address: input.address }),
        });
        // More places go to those waiting, session by session.
        if (input.capacity !== undefined && input.capacity > before.capacity)
          for (const session of await tx.coaching.comingOfSeries(seriesId, new Date())) {
            await tx.coaching.lock(session.id);
            await fillFromWaitlist(tx, mailer, session.id);
          }
        // What those who RSVP'd rely on changed (title, host, plan, place, join link): each coming session
        // is revised (calendars update) and they are told.
        const changedForMembers =
          (input.title !== undefined && input.title !== before.title) ||
          (chosen !== undefined && chosen.id !== before.hostStaffId) ||
          (input.min_tier !== undefined && input.min_tier !== before.minTier) ||
          (input.join_url !== undefined && input.join_url !== before.joinUrl) ||
          (input.address !== undefined && input.address !== before.address);
        if (changedForMembers)
          for (const session of await tx.coaching.comingOfSeries(seriesId, new Date())) {
            await tx.coaching.reviseSession(session.id, {});
            const row = (await tx.coaching.find(session.id))!;
            await tellRsvped(tx, row, 'coachingChanged', row.session.startsAt);
          }
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'coaching.update',
          target: before.title,
          oldValue: {
            title: before.title,
            host: before.hostName,
            min_tier: before.minTier,
            capacity: before.capacity,
            address: before.address,
          },
          newValue: input,
        });
      });
      mailer.nudge();
    },

    async endSeries(viewer, seriesId) {
      const staff = requireStaffArea(viewer, 'coaching');
      const series = await data.coaching.findSeries(seriesId);
      if (!series) throw notFound('Coaching series not found');
      if (series.endedAt) throw conflict('This series has already ended.');
      await data.transaction(async (tx) => {
        await tx.coaching.updateSeries(seriesId, { endedAt: new Date() });
        for (const session of await tx.coaching.comingOfSeries(seriesId, new Date()))
          await cancelSession(tx, (await tx.coaching.find(session.id))!);
        await tx.audit.record({ actorEmail: staff.email, action: 'coaching.end', target: series.title, oldValue: null, newValue: null });
      });
      mailer.nudge();
    },

    async move(viewer, sessionId, input) {
      const staff = requireStaffArea(viewer, 'coaching');
      const row = await sessionRow(sessionId);
      if (row.session.cancelledAt) throw conflict('This session was cancelled: schedule a new one instead.');
      const start = futureStart(input);
      await data.transaction(async (tx) => {
        await tx.coaching.reviseSession(sessionId, { startsAt: start });
        await tellRsvped(tx, row, 'coachingMoved', start);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'coaching.move',
          target: row.series.title,
          oldValue: row.session.startsAt.toISOString(),
          newValue: start.toISOString(),
        });
      });
      mailer.nudge();
      return staffView(sessionId);
    },

    async cancel(viewer, sessionId) {
      const staff = requireStaffArea(viewer, 'coaching');
      const row = await sessionRow(sessionId);
      if (row.session.cancelledAt) throw conflict('This session is already cancelled.');
      if (row.session.startsAt.getTime() <= Date.now()) throw conflict('This session has already started.');
      await data.transaction(async (tx) => {
        await cancelSession(tx, row);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'coaching.cancel',
          target: row.series.title,
          oldValue: row.session.startsAt.toISOString(),
          newValue: null,
        });
      });
      mailer.nudge();
      return staffView(sessionId);
    },

    async record(viewer, sessionId, input) {
      const staff = requireStaffArea(viewer, 'coaching');
      const row = await sessionRow(sessionId);
      // Who the recording is for: the session's members, and of them those its video file opens to.
      let forTier: Tier = row.series.minTier;
      if (input.recording_file_id) {
        const file = await data.files.findById(input.recording_file_id);
        if (!file) throw badRequest('The video is not in the file library.', 'recording_file_id');
        if (!file.contentType.startsWith('video/')) throw badRequest('Choose a video file for the recording.', 'recording_file_id');
        if (file.accessTier) forTier = higherTier(forTier, file.accessTier);
      }
      const hasRecording = input.recording_file_id !== null || input.recording_url !== '';
      if (!hasRecording && input.captions.length > 0) throw badRequest('Give the recording before its captions.', 'captions');
      const captions = await readCaptions(data, deps.storage, input.captions);
      await data.transaction(async (tx) => {
        await tx.coaching.setRecordingCaptions(sessionId, captions);
        await tx.coaching.updateSession(sessionId, {
          recordingFileId: input.recording_file_id,
          recordingUrl: input.recording_url || null,
          notes: input.notes,
          recordedAt: hasRecording ? (row.session.recordedAt ?? new Date()) : null,
        });
        // The first recording of a session is news for those it is for.
        if (hasRecording)
          await announce(tx, {
            kind: 'recording',
            groupKey: `recording:${sessionId}`,
            title: `New recording: ${row.series.title}`,
            body: input.notes.slice(0, NOTIFICATION_BODY_MAX),
            url: '/coaching?tab=recordings',
            requiredTier: forTier,
          });
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'coaching.recording',
          target: row.series.title,
          oldValue: { file: row.session.recordingFileId, url: row.session.recordingUrl },
          newValue: { file: input.recording_file_id, url: input.recording_url || null },
        });
      });
      return staffView(sessionId);
    },

    async setDisplayName(viewer, name) {
      const staff = requireStaffArea(viewer, 'coaching');
      await data.transaction(async (tx) => {
        await tx.coaching.setDisplayName(staff.id, name);
        await tx.coaching.renameHost(staff.id, name);
      });
    },
  };
}
