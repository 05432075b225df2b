import { z } from 'zod';
import { blocksFor, linksOf, parseBroadcast } from '../../common/broadcast-markup.ts';
import {
  BROADCAST_NOT_FOUND,
  type BroadcastInput,
  type BroadcastsService,
  type MemberBroadcast,
  type StaffBroadcast,
} from '../../common/broadcasts.contract.ts';
import { badRequest, conflict, notFound } from '../../common/errors.ts';
import { BROADCASTS, PAGE_SIZE } from '../../common/limits.ts';
import { broadcastAudiencesOf, mayReadBroadcast, requireMember, requireStaffArea } from '../../common/policies.ts';
import { TIERS, type Tier } from '../../common/tiers.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { DataAccess } from '../repositories.ts';
import type { BroadcastRow } from './broadcasts.repository.ts';
import { broadcastMail } from './broadcast-sender.ts';

// Staff write, preview, test and send broadcasts; members read the sent ones their tier was sent.
// What a member may read of one is decided from the tier they have now, on every read.

const Cursor = z.tuple([TimestampKey, z.uuid()]);
const ALREADY_SENT = 'This broadcast is sent or on its way: write a new one.';

const staffView = (row: BroadcastRow): StaffBroadcast => ({
  id: row.id,
  subject: row.subject,
  body: row.body,
  audience: row.audience,
  course_id: row.audienceCourseId,
  team_id: row.audienceTeamId,
  inactive_days: row.inactiveDays,
  status: row.status,
  send_at: row.sendAt?.toISOString() ?? null,
  sent_count: row.sentCount,
  delivered_count: row.deliveredCount,
  failed_count: row.failedCount,
  unsubscribed_count: row.unsubscribedCount,
  clicks: row.clicks,
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
});

const memberView = (row: BroadcastRow, tier: Tier): MemberBroadcast => ({
  id: row.id,
  subject: row.subject,
  sent_at: (row.sentAt ?? row.createdAt).toISOString(),
  blocks: blocksFor(parseBroadcast(row.body), tier),
});

/** The highest tier of an audience: the copy a test mail shows. */
const highestOf = (audience: Tier[]) => [...TIERS].reverse().find((tier) => audience.includes(tier)) ?? 'free';

export function createBroadcastsService(deps: { data: DataAccess; mailer: Mailer }): BroadcastsService {
  const { data, mailer } = deps;

  /** The columns of what staff wrote; a course named must exist. */
  async function written(input: BroadcastInput) {
    if (input.course_id && !(await data.courses.findById(input.course_id)))
      throw badRequest('Choose a course from the catalogue.', 'course_id');
    if (input.team_id && !(await data.teams.find(input.team_id))) throw badRequest('Choose a team from the list.', 'team_id');
    return {
      subject: input.subject,
      body: input.body,
      audience: input.audience,
      audienceCourseId: input.course_id,
      audienceTeamId: input.team_id,
      inactiveDays: input.inactive_days,
    };
  }

  async function found(id: string): Promise<BroadcastRow> {
    const row = await data.broadcasts.find(id);
    if (!row) throw notFound(BROADCAST_NOT_FOUND);
    return row;
  }

  return {
    async teamChoices(viewer) {
      requireStaffArea(viewer, 'broadcasts');
      return data.teams.latest(BROADCASTS.teamsListed);
    },

    async list(viewer, query = {}) {
      requireStaffArea(viewer, 'broadcasts');
      const before = query.before ? decodeCursor(query.before, Cursor) : undefined;
      const rows = await data.broadcasts.list(PAGE_SIZE.staffList + 1, before && { at: before[0], id: before[1] });
      return pageOf(
        rows,
        PAGE_SIZE.staffList,
        (row) => [row.key, row.broadcast.id],
        (row) => staffView(row.broadcast),
      );
    },

    async create(viewer, input: BroadcastInput) {
      const staff = requireStaffArea(viewer, 'broadcasts');
      const columns = await written(input);
      const row = await data.transaction(async (tx) => {
        const made = await tx.broadcasts.insert({ ...columns, createdBy: staff.email });
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'broadcast.create',
          target: input.subject,
          oldValue: null,
          newValue: { audience: input.audience },
        });
        return made;
      });
      return staffView(row);
    },

    async update(viewer, id, input) {
      requireStaffArea(viewer, 'broadcasts');
      await found(id);
      if (!(await data.broadcasts.updateDraft(id, await written(input)))) throw conflict(ALREADY_SENT);
      return staffView(await found(id));
    },

    async preview(viewer, id) {
      requireStaffArea(viewer, 'broadcasts');
      const sections = parseBroadcast((await found(id)).body);
      return Object.fromEntries(TIERS.map((tier) => [tier, blocksFor(sections, tier)])) as Record<Tier, ReturnType<typeof blocksFor>>;
    },

    async sendTest(viewer, id) {
      const staff = requireStaffArea(viewer, 'broadcasts');
      const row = await found(id);
      await data.transaction(async (tx) => {
        const mail = await broadcastMail(mailer, row, highestOf(row.audience), mailer.link('/account'));
        await mailer.queue(tx, 'broadcast-test', staff.email, { ...mail, subject: `[Test] ${mail.subject}` });
      });
      mailer.nudge();
    },

    async send(viewer, id, input) {
      const staff = requireStaffArea(viewer, 'broadcasts');
      const row = await found(id);
      const sendAt = input.send_at ? new Date(input.send_at) : new Date();
      if (input.send_at && sendAt.getTime() <= Date.now()) throw badRequest('Choose a time to come, or send it now.', 'send_at');
      await data.transaction(async (tx) => {
        if (!(await tx.broadcasts.updateDraft(id, { status: 'scheduled', sendAt }))) throw conflict(ALREADY_SENT);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'broadcast.send',
          target: row.subject,
          oldValue: null,
          newValue: { audience: row.audience, send_at: sendAt.toISOString() },
        });
      });
      return staffView(await found(id));
    },

    async past(viewer, query = {}) {
      const member = requireMember(viewer);
      const before = query.before ? decodeCursor(query.before, Cursor) : undefined;
      // The page is read in SQL, of the audiences the policy names: the same rule as mayReadBroadcast.
      const rows = await data.broadcasts.sentTo(
        broadcastAudiencesOf(viewer),
        PAGE_SIZE.memberList + 1,
        before && { at: before[0], id: before[1] },
      );
      return pageOf(
        rows,
        PAGE_SIZE.memberList,
        (row) => [row.key, row.broadcast.id],
        (row) => memberView(row.broadcast, member.membershipTier),
      );
    },

    async click(id, to) {
      const row = await data.broadcasts.find(id);
      if (!row || row.status === 'draft') return null;
      // Only an address the broadcast itself holds: the redirect is never an open door to anywhere.
      if (!linksOf(parseBroadcast(row.body)).includes(to)) return null;
      await data.broadcasts.countClick(id);
      return to.startsWith('/') ? mailer.link(to) : to;
    },

    async read(viewer, id) {
      const member = requireMember(viewer);
      const row = await data.broadcasts.find(id);
      // Unsent, or not sent to the member's tier (now): the same 404, so nothing tells it exists.
      if (!row || row.status !== 'sent' || !mayReadBroadcast(viewer, row)) throw notFound(BROADCAST_NOT_FOUND);
      return memberView(row, member.membershipTier);
    },
  };
}
