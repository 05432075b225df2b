import { z } from 'zod';
import {
  JOIN_NEEDS_PLACE,
  JOIN_NOT_OPEN,
  JOIN_WHILE_WAITING,
  NOT_FULL,
  SESSION_CANCELLED,
  SESSION_FULL,
  SESSION_NOT_FOUND,
  SESSION_OVER,
  type CoachingService,
} from '../../common/coaching.contract.ts';
import { BRAND_NAME } from '../../common/brand.ts';
import { conflict, forbidden, notFound } from '../../common/errors.ts';
import { COACHING, PAGE_SIZE } from '../../common/limits.ts';
import { joinLinkOpen, mayEnterSession, mayJoinSession, mayWatchRecording, refuseFile, requireMember } from '../../common/policies.ts';
import { slugOf } from '../../common/slug.ts';
import { TIER_LABEL } from '../../common/tiers.ts';
import type { Viewer } from '../../common/viewer.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import { generateSessionToken, hashSessionToken } from '../sessions/tokens.ts';
import type { SessionRow } from './coaching.repository.ts';
import { calendarEventsOf, policyFacts, recordingView, sessionView, type MemberPlace } from './coaching-views.ts';
import { calendarOf } from './ics.ts';
import { fillFromWaitlist } from './waitlist.ts';

// The members' side of live coaching. Who may join is decided in common/policies.ts, on every call,
// from the tier the member has now; places are counted under the session's lock.

const StartCursor = z.tuple([TimestampKey, z.uuid()]);
const startKey = (row: SessionRow) => [row.startKey, row.session.id] as const;
const asStartKey = ([startsAt, id]: z.output<typeof StartCursor>) => ({ startsAt, id });

const upgradeTo = (row: SessionRow) =>
  `This session is for ${TIER_LABEL[row.series.minTier]} members and above. Upgrade your plan to join.`;

export function createCoachingService(deps: { data: DataAccess; mailer: Mailer }): CoachingService {
  const { data, mailer } = deps;
  const coaching = data.coaching;
  const pageUrl = (sessionId: string) => mailer.link('/coaching', { session: sessionId });

  async function found(sessionId: string): Promise<SessionRow> {
    const row = await coaching.find(sessionId);
    if (!row) throw notFound(SESSION_NOT_FOUND);
    return row;
  }

  /** The session, if this member's tier includes it (403 with the upgrade otherwise). */
  async function joinable(viewer: Viewer, sessionId: string): Promise<SessionRow> {
    const row = await found(sessionId);
    if (!mayJoinSession(viewer, policyFacts(row))) throw forbidden(upgradeTo(row));
    return row;
  }

  /** The member's place in each of these sessions. */
  async function placesOf(memberId: string, rows: SessionRow[]) {
    const ids = rows.map((row) => row.session.id);
    const [rsvped, waitlisted] = await Promise.all([coaching.rsvpedAmong(memberId, ids), coaching.waitlistedAmong(memberId, ids)]);
    return (row: SessionRow): MemberPlace => ({ rsvped: rsvped.has(row.session.id), waitlisted: waitlisted.has(row.session.id) });
  }

  async function viewOf(viewer: Viewer, row: SessionRow, memberId: string) {
    return sessionView(row, viewer, (await placesOf(memberId, [row]))(row), new Date());
  }

  /** Changes the member's place under the session's lock, in a session not cancelled and not started. */
  async function changePlace(
    viewer: Viewer,
    sessionId: string,
    change: (tx: Repositories, row: SessionRow, memberId: string) => Promise<void>,
  ) {
    const member = requireMember(viewer);
    await joinable(viewer, sessionId);
    await data.transaction(async (tx) => {
      // Under the session's lock, places are counted one request at a time: never more than the capacity.
      await tx.coaching.lock(sessionId);
      const row = (await tx.coaching.find(sessionId))!;
      if (row.session.cancelledAt) throw conflict(SESSION_CANCELLED);
      if (row.session.startsAt.getTime() <= Date.now()) throw conflict(SESSION_OVER);
      await change(tx, row, member.id);
    });
    mailer.nudge();
    return viewOf(viewer, await found(sessionId), member.id);
  }

  return {
    async upcoming(viewer, query = {}) {
      const member = requireMember(viewer);
      const now = new Date();
      const from = query.after ? asStartKey(decodeCursor(query.after, StartCursor)) : undefined;
      const rows = await coaching.upcoming(now, PAGE_SIZE.memberList + 1, from);
      const placeIn = await placesOf(member.id, rows);
      return pageOf(rows, PAGE_SIZE.memberList, startKey, (row) => sessionView(row, viewer, placeIn(row), now));
    },

    async session(viewer, sessionId) {
      const member = requireMember(viewer);
      return viewOf(viewer, await found(sessionId), member.id);
    },

    async nextFor(viewer) {
      const member = requireMember(viewer);
      const row = await coaching.nextRsvped(member.id, new Date());
      return row && sessionView(row, viewer, { rsvped: true, waitlisted: false }, new Date());
    },

    async rsvp(viewer, sessionId) {
      return changePlace(viewer, sessionId, async (tx, row, memberId) => {
        if ((await tx.coaching.rsvpedAmong(memberId, [sessionId])).has(sessionId)) return;
        if (row.rsvpCount >= row.series.capacity) throw conflict(SESSION_FULL);
        await tx.coaching.addRsvp(sessionId, memberId);
        await tx.coaching.removeFromWaitlist(sessionId, memberId);
      });
    },

    // Giving a place back is always allowed (a member whose plan no longer reaches the session too):
    // the first member waiting who may join takes it, in the same transaction.
    async cancelRsvp(viewer, sessionId) {
      const member = requireMember(viewer);
      const row = await found(sessionId);
      if (row.session.startsAt.getTime() <= Date.now()) throw conflict(SESSION_OVER);
      await data.transaction(async (tx) => {
        await tx.coaching.lock(sessionId);
        await tx.coaching.removeRsvp(sessionId, member.id);
        await fillFromWaitlist(tx, mailer, sessionId);
      });
      mailer.nudge();
      return viewOf(viewer, await found(sessionId), member.id);
    },

    async joinWaitlist(viewer, sessionId) {
      return changePlace(viewer, sessionId, async (tx, row, memberId) => {
        if ((await tx.coaching.rsvpedAmong(memberId, [sessionId])).has(sessionId)) return;
        if (row.rsvpCount < row.series.capacity) throw conflict(NOT_FULL);
        await tx.coaching.addToWaitlist(sessionId, memberId);
      });
    },

    async leaveWaitlist(viewer, sessionId) {
      const member = requireMember(viewer);
      await found(sessionId);
      await coaching.removeFromWaitlist(sessionId, member.id);
      return viewOf(viewer, await found(sessionId), member.id);
    },

    async join(viewer, sessionId) {
      const member = requireMember(viewer);
      const row = await joinable(viewer, sessionId);
      const now = new Date();
      if (row.session.cancelledAt) throw conflict(SESSION_CANCELLED);
      if (!row.series.joinUrl) throw conflict(`This event takes place in person, at ${row.series.address}.`);
      if (!joinLinkOpen(policyFacts(row), now)) {
        throw conflict(
          now < row.session.startsAt ? JOIN_NOT_OPEN : 'This session has ended. Its recording appears in the library once staff add it.',
        );
      }
      // The capacity is the places given: only a member holding one goes in (and is counted as attending).
      const place = (await placesOf(member.id, [row]))(row);
      if (!mayEnterSession(viewer, policyFacts(row), place, now)) throw forbidden(place.waitlisted ? JOIN_WHILE_WAITING : JOIN_NEEDS_PLACE);
      await coaching.recordAttendance(sessionId, member.id);
      return { url: row.series.joinUrl };
    },

    async calendarFile(viewer, sessionId) {
      requireMember(viewer);
      const row = await joinable(viewer, sessionId);
      return { filename: `${slugOf(row.series.title, 'session')}.ics`, body: calendarOf(calendarEventsOf([row], viewer, pageUrl)) };
    },

    async recordingTranscript(viewer, sessionId, language) {
      const found = await coaching.recordingCaptions(sessionId, language);
      if (!found) throw notFound('This recording has no transcript in this language.');
      const recording = { minTier: found.minTier, file: found.recordingFileId ? { accessTier: found.recordingFileTier } : null };
      if (!mayWatchRecording(viewer, recording)) refuseFile(viewer, 'recording');
      return { language, cues: found.cues };
    },

    async recordings(viewer, query = {}) {
      requireMember(viewer);
      const from = query.before ? asStartKey(decodeCursor(query.before, StartCursor)) : undefined;
      const rows = await coaching.recordings(PAGE_SIZE.memberList + 1, from);
      const captions = await coaching.recordingCaptionsOf(rows.map((row) => row.session.id));
      return pageOf(rows, PAGE_SIZE.memberList, startKey, (row) =>
        recordingView(
          row,
          viewer,
          captions.filter((each) => each.sessionId === row.session.id),
        ),
      );
    },

    async feedStatus(viewer) {
      const feed = await coaching.feedOf(requireMember(viewer).id);
      return { active: feed !== null, created_at: feed?.createdAt.toISOString() ?? null };
    },

    // Only the secret's hash is kept (like a session's), so the address is shown this once.
    async resetFeed(viewer) {
      const member = requireMember(viewer);
      const token = generateSessionToken();
      await coaching.setFeed(member.id, hashSessionToken(token));
      const url = mailer.link(`/api/coaching/calendar/${token}.ics`);
      return { url, webcal_url: url.replace(/^https?:/, 'webcal:') };
    },

    async stopFeed(viewer) {
      await coaching.deleteFeed(requireMember(viewer).id);
    },

    // A calendar app asks with no session: the member is who the secret names, with the plan they have
    // now, so the feed holds what the API would show them today (not what they could join when they RSVP'd).
    async feed(token) {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      const memberId = await coaching.memberOfFeed(hashSessionToken(token));
      const member = memberId && (await data.members.findById(memberId));
      if (!member) return null;
      const rows = await coaching.rsvpedSince(member.id, new Date(Date.now() - COACHING.feed.reachesBackMs), COACHING.feed.maxSessions);
      return calendarOf(calendarEventsOf(rows, { membershipTier: member.tier }, pageUrl), { name: `${BRAND_NAME} coaching` });
    },
  };
}
