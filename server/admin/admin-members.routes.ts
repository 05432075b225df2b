import { desc, eq, ilike, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tier } from '../../common/tiers.ts';
import { members } from '../../db/schema.ts';
import { notFound, parseInput } from '../http/errors.ts';
import { requireStaff } from '../sessions/session.plugin.ts';
import { MemberTierInput } from '../../common/admin.ts';
import { recordAudit } from './audit.ts';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** A CSV cell; formulas are neutralised so a spreadsheet never runs a member's text. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export async function adminMembersRoutes(app: FastifyInstance) {
  async function search(query: string | undefined) {
    const needle = query?.trim().slice(0, 100);
    const rows = await app.database
      .select({ id: members.id, name: members.name, email: members.email, tier: members.membershipTier, createdAt: members.createdAt })
      .from(members)
      .where(needle ? or(ilike(members.name, `%${escapeLike(needle)}%`), ilike(members.email, `%${escapeLike(needle)}%`)) : undefined)
      .orderBy(desc(members.createdAt))
      .limit(500);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      membership_tier: row.tier as Tier,
      created_at: row.createdAt.toISOString(),
    }));
  }

  app.get<{ Querystring: { search?: string } }>('/api/admin/members', async (request) => search(request.query.search));

  app.get<{ Querystring: { search?: string } }>('/api/admin/members/export.csv', async (request, reply) => {
    const rows = await search(request.query.search);
    const lines = [['Name', 'Email', 'Tier', 'Joined'].join(',')].concat(
      rows.map((row) => [row.name, row.email, row.membership_tier, row.created_at.slice(0, 10)].map(csvCell).join(',')),
    );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="members.csv"')
      .send(`${lines.join('\r\n')}\r\n`);
  });

  app.post<{ Params: { id: string } }>('/api/admin/members/:id/tier', async (request) => {
    const staff = await requireStaff(request);
    const { membership_tier } = parseInput(MemberTierInput, request.body);
    if (!/^[0-9a-f-]{36}$/i.test(request.params.id)) throw notFound('Member not found');
    return app.database.transaction(async (tx) => {
      const [member] = await tx.select().from(members).where(eq(members.id, request.params.id));
      if (!member) throw notFound('Member not found');
      await tx.update(members).set({ membershipTier: membership_tier, updatedAt: new Date() }).where(eq(members.id, member.id));
      await recordAudit(tx, {
        actorEmail: staff.email,
        action: 'member.tier',
        target: member.email,
        oldValue: member.membershipTier,
        newValue: membership_tier,
      });
      return { success: true, id: member.id, membership_tier };
    });
  });
}
