import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SESSION_CANCELLED, SESSION_FULL, type SeriesInput } from '../../common/coaching.contract.ts';
import { localTimeOf } from '../../common/time-zones.ts';
import { coachingAttendance, coachingRsvps } from '../../db/schema.ts';
import { expectRefusedToEveryoneBut, lastAuditEntry, refusal, serviceTestApp, SIGN_IN_FIRST } from '../../tests/helpers/service-tests.ts';

// Live group coaching: members see, RSVP and join the sessions their tier includes; staff schedule them.

const t = serviceTestApp();
const MINUTE = 60_000;

/** A start `minutes` from now, as the date and time in UTC the scheduling form sends. */
function startIn(minutes: number) {
  const local = localTimeOf(new Date(Date.now() + minutes * MINUTE), 'UTC');
  const two = (value: number) => String(value).padStart(2, '0');
  return { date: `${local.year}-${two(local.month)}-${two(local.day)}`, time: `${two(local.hour)}:${two(local.minute)}`, time_zone: 'UTC' };
}

async function scheduled(minutesAhead: number, input: Partial<SeriesInput> = {}) {
  const editor = await t.asStaff('editor');
  return t.app.services.coachingAdmin.schedule(editor, {
    title: 'Pricing clinic',
    description: 'Bring a listing.',
    host_staff_id: editor.staff.id,
    ...startIn(minutesAhead),
    duration_minutes: 60,
    min_tier: 'silver',
    capacity: 2,
    weekly: false,
    join_url: 'https://meet.example.com/pricing',
    kind: 'session',
    address: '',
    ...input,
  });
}

describe('members and sessions', () => {
  it('shows a Silver session to a Bronze member locked, with the upgrade, and refuses the RSVP and the join link', async () => {
    const session = await scheduled(10);
    const bronze = await t.asMember('bronze');
    const seen = await t.app.services.coaching.session(bronze, session.id);
    expect(seen).toMatchObject({ locked: true, join_url: null, rsvped: false });
    const upgrade = { status: 403, message: 'This session is for Silver members and above. Upgrade your plan to join.' };
    expect(await refusal(t.app.services.coaching.rsvp(bronze, session.id))).toEqual(upgrade);
    expect(await refusal(t.app.services.coaching.join(bronze, session.id))).toEqual(upgrade);
    expect(await refusal(t.app.services.coaching.rsvp(t.asVisitor(), session.id))).toEqual(SIGN_IN_FIRST);
  });

  it('lets a Silver member RSVP, join from 15 minutes before (recorded once), and keeps the last place for one member', async () => {
    const session = await scheduled(10, { capacity: 1 });
    const silver = await t.asMember('silver');
    const rsvped = await t.app.services.coaching.rsvp(silver, session.id);
    // The link on the page goes through the join call, which records attendance.
    expect(rsvped).toMatchObject({ rsvped: true, seats_left: 0, join_url: `/api/coaching/sessions/${session.id}/join` });
    expect(await refusal(t.app.services.coaching.rsvp(await t.asMember('gold'), session.id))).toEqual({
      status: 409,
      message: SESSION_FULL,
    });

    expect(await t.app.services.coaching.join(silver, session.id)).toEqual({ url: 'https://meet.example.com/pricing' });
    await t.app.services.coaching.join(silver, session.id);
    const attendance = await t.db
      .select()
      .from(coachingAttendance)
      .where(and(eq(coachingAttendance.sessionId, session.id), eq(coachingAttendance.memberId, silver.member.id)));
    expect(attendance).toHaveLength(1);
  });

  it('refuses a new RSVP to a cancelled session, keeping those it had', async () => {
    const session = await scheduled(3 * 24 * 60);
    const silver = await t.asMember('silver');
    await t.app.services.coaching.rsvp(silver, session.id);
    const cancelled = await t.app.services.coachingAdmin.cancel(await t.asStaff('owner'), session.id);
    expect(cancelled.cancelled).toBe(true);
    expect(await refusal(t.app.services.coaching.rsvp(await t.asMember('gold'), session.id))).toEqual({
      status: 409,
      message: SESSION_CANCELLED,
    });
    expect(await lastAuditEntry(t, { action: 'coaching.cancel' })).toBeDefined();
    expect(await t.db.select().from(coachingRsvps).where(eq(coachingRsvps.sessionId, session.id))).toHaveLength(1);
  });
});

describe('staff and sessions', () => {
  it('refuses scheduling and the staff lists to everyone but staff', async () => {
    const session = await scheduled(60);
    await expectRefusedToEveryoneBut('staff', t, (viewer) => [
      () => t.app.services.coachingAdmin.sessions(viewer, { when: 'upcoming' }),
      () => t.app.services.coachingAdmin.attendees(viewer, session.id),
      () => t.app.services.coachingAdmin.cancel(viewer, session.id),
      () => t.app.services.coachingAdmin.hosts(viewer),
    ]);
  });

  it('records each scheduling in the activity log', async () => {
    await scheduled(90, { title: 'Listing presentations' });
    expect(await lastAuditEntry(t, { action: 'coaching.schedule', target: 'Listing presentations' })).toBeDefined();
  });
});
