import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SESSION_NOT_FOUND } from '../../common/coaching.contract.ts';
import { coachingSessions, outboxMessages } from '../../db/schema.ts';
import {
  expectRefusedToEveryoneBut,
  lastAuditEntry,
  libraryFile,
  refusal,
  scheduledSession,
  serviceTestApp,
  sessionInput,
  startInMinutes,
} from '../../tests/helpers/service-tests.ts';

// Staff's side of live coaching: scheduling once or weekly, changing a series, moving, cancelling
// and recording sessions. Those who RSVP'd hear of a new time or a cancellation; added places go to
// those waiting; every change is in the activity log.

const t = serviceTestApp();
const admin = () => t.app.services.coachingAdmin;
const coaching = () => t.app.services.coaching;
const MISSING = '00000000-0000-4000-8000-000000000000';
const DAY_MINUTES = 24 * 60;

/** The kinds of mail queued for this address, in order. */
const mailKindsTo = async (email: string, kind: string) =>
  (
    await t.db
      .select({ kind: outboxMessages.kind })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.toAddress, email), eq(outboxMessages.kind, kind)))
  ).map((row) => row.kind);

describe('who schedules', () => {
  it('keeps every staff call to staff (editors included)', async () => {
    const session = await scheduledSession(t, 3 * DAY_MINUTES);
    await expectRefusedToEveryoneBut('staff', t, (viewer) => [
      () => admin().session(viewer, session.id),
      () => admin().schedule(viewer, sessionInput(MISSING, 60)),
      () => admin().updateSeries(viewer, session.series_id, { title: 'Taken over' }),
      () => admin().endSeries(viewer, session.series_id),
      () => admin().move(viewer, session.id, startInMinutes(2 * DAY_MINUTES)),
      () => admin().record(viewer, session.id, { recording_file_id: null, recording_url: '', notes: '', captions: [] }),
      () => admin().setDisplayName(viewer, 'Someone'),
    ]);
  });
});

describe('scheduling', () => {
  it('refuses a host who is not staff and a start that has passed', async () => {
    expect(await refusal(scheduledSession(t, 60, { host_staff_id: MISSING }))).toEqual({
      status: 400,
      message: 'Choose a host from the staff list.',
    });
    expect(await refusal(scheduledSession(t, -60))).toEqual({ status: 400, message: 'Choose a start in the future.' });
  });

  it('plans a weekly series twelve weeks ahead, and records it with the number of sessions', async () => {
    const first = await scheduledSession(t, 60, { title: 'Weekly pipeline review', weekly: true });
    expect(first).toMatchObject({ title: 'Weekly pipeline review', weekly: true, rsvp_count: 0, cancelled: false, series_ended: false });
    const planned = (await admin().sessions(await t.asStaff('editor'), { when: 'upcoming' })).items.filter(
      (each) => each.series_id === first.series_id,
    );
    expect(planned).toHaveLength(12);
    expect(new Date(planned[1]!.starts_at).getTime() - new Date(planned[0]!.starts_at).getTime()).toBe(7 * DAY_MINUTES * 60_000);
    expect(await lastAuditEntry(t, { action: 'coaching.schedule', target: 'Weekly pipeline review' })).toMatchObject({
      newValue: { sessions: 12, weekly: true },
    });
    expect(await refusal(admin().session(await t.asStaff('owner'), MISSING))).toEqual({ status: 404, message: SESSION_NOT_FOUND });
  });
});

describe('changing sessions', () => {
  it('moves a session to a time to come, telling those who RSVP’d, and records it', async () => {
    const session = await scheduledSession(t, 3 * DAY_MINUTES);
    const member = await t.asMember('silver');
    await coaching().rsvp(member, session.id);
    const editor = await t.asStaff('editor');
    expect(await refusal(admin().move(editor, session.id, startInMinutes(-10)))).toEqual({
      status: 400,
      message: 'Choose a start in the future.',
    });
    const to = startInMinutes(4 * DAY_MINUTES);
    const moved = await admin().move(editor, session.id, to);
    expect(moved.starts_at).toBe(`${to.date}T${to.time}:00.000Z`);
    expect(await mailKindsTo(member.member.email, 'coaching-moved')).toEqual(['coaching-moved']);
    expect(await lastAuditEntry(t, { action: 'coaching.move' })).toMatchObject({ oldValue: session.starts_at, newValue: moved.starts_at });
  });

  it('cancels a session once, telling those who RSVP’d, and then neither moves nor cancels it again', async () => {
    const session = await scheduledSession(t, 3 * DAY_MINUTES);
    const member = await t.asMember('gold');
    await coaching().rsvp(member, session.id);
    const owner = await t.asStaff('owner');
    expect(await admin().cancel(owner, session.id)).toMatchObject({ cancelled: true, rsvp_count: 1 });
    expect(await mailKindsTo(member.member.email, 'coaching-cancelled')).toEqual(['coaching-cancelled']);
    expect(await refusal(admin().cancel(owner, session.id))).toEqual({ status: 409, message: 'This session is already cancelled.' });
    expect(await refusal(admin().move(owner, session.id, startInMinutes(5 * DAY_MINUTES)))).toEqual({
      status: 409,
      message: 'This session was cancelled: schedule a new one instead.',
    });
  });

  it('does not cancel a session that has started', async () => {
    const session = await scheduledSession(t, DAY_MINUTES);
    await t.db
      .update(coachingSessions)
      .set({ startsAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(coachingSessions.id, session.id));
    expect(await refusal(admin().cancel(await t.asStaff('owner'), session.id))).toEqual({
      status: 409,
      message: 'This session has already started.',
    });
    expect((await admin().session(await t.asStaff('owner'), session.id)).cancelled).toBe(false);
  });

  it('ends a weekly series once, cancelling its sessions still to come', async () => {
    const first = await scheduledSession(t, 2 * DAY_MINUTES, { title: 'Ending series', weekly: true });
    const editor = await t.asStaff('editor');
    await admin().endSeries(editor, first.series_id);
    const left = (await admin().sessions(editor, { when: 'upcoming' })).items.filter((each) => each.series_id === first.series_id);
    expect(left.length).toBeGreaterThan(0);
    for (const each of left) expect(each).toMatchObject({ cancelled: true, series_ended: true });
    expect(await refusal(admin().endSeries(editor, first.series_id))).toEqual({ status: 409, message: 'This series has already ended.' });
    expect(await refusal(admin().endSeries(editor, MISSING))).toEqual({ status: 404, message: 'Coaching series not found' });
  });
});

describe('changing a series', () => {
  it('refuses an address for an online session and a series left with neither link nor address', async () => {
    const session = await scheduledSession(t, DAY_MINUTES);
    const editor = await t.asStaff('editor');
    expect(await refusal(admin().updateSeries(editor, session.series_id, { address: '1 Main Street' }))).toEqual({
      status: 400,
      message: 'Only events take place in person: leave the address empty.',
    });
    expect(await refusal(admin().updateSeries(editor, session.series_id, { join_url: '' }))).toEqual({
      status: 400,
      message: 'Give a join link (the video meeting address), or, for an event in person, its address.',
    });
    expect(await refusal(admin().updateSeries(editor, MISSING, { title: 'Nothing' }))).toEqual({
      status: 404,
      message: 'Coaching series not found',
    });
  });

  it('gives added places to those waiting, first come first served, and records the change', async () => {
    const session = await scheduledSession(t, 2 * DAY_MINUTES, { title: 'Full clinic', capacity: 1 });
    await coaching().rsvp(await t.asMember('silver'), session.id);
    const [first, second] = [await t.asMember('gold'), await t.asMember('silver')];
    await coaching().joinWaitlist(first, session.id);
    await coaching().joinWaitlist(second, session.id);
    const editor = await t.asStaff('editor');
    await admin().updateSeries(editor, session.series_id, { capacity: 2, title: 'Bigger clinic' });
    expect(await admin().session(editor, session.id)).toMatchObject({
      title: 'Bigger clinic',
      capacity: 2,
      rsvp_count: 2,
      waitlist_count: 1,
    });
    expect((await coaching().session(first, session.id)).rsvped).toBe(true);
    expect((await coaching().session(second, session.id)).waitlisted).toBe(true);
    expect(await mailKindsTo(first.member.email, 'coaching-place-opened')).toEqual(['coaching-place-opened']);
    expect(await lastAuditEntry(t, { action: 'coaching.update', target: 'Full clinic' })).toMatchObject({
      oldValue: { capacity: 1 },
      newValue: { capacity: 2, title: 'Bigger clinic' },
    });
  });
});

describe('recordings and hosts', () => {
  it('takes only a video of the file library as a recording, and records it', async () => {
    const session = await scheduledSession(t, 60, { title: 'Recorded clinic' });
    const editor = await t.asStaff('editor');
    const record = (recordingFileId: string | null, url = '') =>
      admin().record(editor, session.id, {
        recording_file_id: recordingFileId,
        recording_url: url,
        notes: 'Slides in the library.',
        captions: [],
      });
    expect(await refusal(record(MISSING))).toEqual({ status: 400, message: 'The video is not in the file library.' });
    expect(await refusal(record(await libraryFile(t)))).toEqual({ status: 400, message: 'Choose a video file for the recording.' });
    const video = await libraryFile(t, { filename: 'clinic.mp4', folder: 'videos', contentType: 'video/mp4' });
    expect(await record(video)).toMatchObject({ recording_file_id: video, recording_url: null, notes: 'Slides in the library.' });
    expect(await record(null, 'https://video.example.com/clinic')).toMatchObject({
      recording_file_id: null,
      recording_url: 'https://video.example.com/clinic',
    });
    expect(await lastAuditEntry(t, { action: 'coaching.recording', target: 'Recorded clinic' })).toMatchObject({
      oldValue: { file: video, url: null },
      newValue: { file: null, url: 'https://video.example.com/clinic' },
    });
  });

  it('shows a host by the name they choose, also on the series they host', async () => {
    const coach = await t.asStaff('editor');
    const session = await scheduledSession(t, DAY_MINUTES, { host_staff_id: coach.staff.id });
    expect(session.host_name).toBe(coach.staff.email.split('@')[0]);
    await admin().setDisplayName(coach, 'Coach Casey');
    expect(await admin().hosts(coach)).toContainEqual({ id: coach.staff.id, email: coach.staff.email, name: 'Coach Casey' });
    expect((await admin().session(coach, session.id)).host_name).toBe('Coach Casey');
  });
});
