import type { AdminMember, MembersService } from '../../common/admin.contract.ts';
import { notFound } from '../../common/errors.ts';
import { requireOwner } from '../../common/viewer.ts';
import type { SubscriptionRow } from '../billing/billing.repository.ts';
import { subscriptionView } from '../billing/billing.service.ts';
import { applyMembershipTier } from '../billing/membership-tier.ts';
import type { DataAccess } from '../repositories.ts';
import type { MemberCursor, MembersRepository } from './members.repository.ts';

const SEARCH_ROWS = 500;
const EXPORT_PAGE = 500;

type MemberRow = Awaited<ReturnType<MembersRepository['search']>>[number];

const toAdminMember = (row: MemberRow, subscription: SubscriptionRow | undefined): AdminMember => ({
  id: row.id,
  name: row.name,
  email: row.email,
  membership_tier: row.tier,
  complimentary_tier: row.complimentaryTier,
  subscription: subscription ? subscriptionView(subscription) : null,
  created_at: row.createdAt.toISOString(),
});

/** A CSV cell; formulas are neutralised so a spreadsheet never runs a member's text. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function createMembersService(data: DataAccess): MembersService {
  return {
    async search(viewer, search) {
      requireOwner(viewer);
      const rows = await data.members.search(search, SEARCH_ROWS);
      const subscriptions = await data.billing.currentOf(rows.map((row) => row.id));
      return rows.map((row) => toAdminMember(row, subscriptions.get(row.id)));
    },

    async *exportCsv(viewer, search) {
      requireOwner(viewer);
      yield `${['Name', 'Email', 'Tier', 'Joined'].join(',')}\r\n`;
      let before: MemberCursor | undefined;
      for (;;) {
        const rows = await data.members.search(search, EXPORT_PAGE, before);
        if (rows.length > 0) {
          yield rows
            .map((row) => `${[row.name, row.email, row.tier, row.createdAt.toISOString().slice(0, 10)].map(csvCell).join(',')}\r\n`)
            .join('');
        }
        const last = rows.at(-1);
        if (!last || rows.length < EXPORT_PAGE) return;
        before = { createdAt: last.cursor, id: last.id };
      }
    },

    async setTier(viewer, memberId, tier) {
      const staff = requireOwner(viewer);
      return data.transaction(async (tx) => {
        const member = await tx.members.findById(memberId);
        if (!member) throw notFound('Member not found');
        // Staff give a complimentary tier; the member's tier is then the higher of it and what they pay for.
        const complimentary = tier === 'free' ? null : tier;
        await tx.members.setComplimentaryTier(member.id, complimentary);
        await applyMembershipTier(tx, member.id);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'member.tier',
          target: member.email,
          oldValue: member.complimentaryTier ?? 'free',
          newValue: tier,
        });
        const updated = await tx.members.findById(member.id);
        return { success: true as const, id: member.id, membership_tier: updated?.tier ?? tier };
      });
    },
  };
}
