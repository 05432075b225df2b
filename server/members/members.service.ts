import type { MembersService } from '../../common/admin.contract.ts';
import { notFound } from '../../common/errors.ts';
import { requireStaff } from '../../common/viewer.ts';
import type { DataAccess } from '../repositories.ts';
import type { MemberCursor, MembersRepository } from './members.repository.ts';

const SEARCH_ROWS = 500;
const EXPORT_PAGE = 500;

type MemberRow = Awaited<ReturnType<MembersRepository['search']>>[number];

const toAdminMember = (row: MemberRow) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  membership_tier: row.tier,
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
      requireStaff(viewer);
      return (await data.members.search(search, SEARCH_ROWS)).map(toAdminMember);
    },

    async *exportCsv(viewer, search) {
      requireStaff(viewer);
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
      const staff = requireStaff(viewer);
      return data.transaction(async (tx) => {
        const member = await tx.members.findById(memberId);
        if (!member) throw notFound('Member not found');
        await tx.members.setTier(member.id, tier);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'member.tier',
          target: member.email,
          oldValue: member.tier,
          newValue: tier,
        });
        return { success: true as const, id: member.id, membership_tier: tier };
      });
    },
  };
}
