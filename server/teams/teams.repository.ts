import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { SubscriptionStatus } from '../../common/billing.contract.ts';
import type { BillingPeriod, PaidTier } from '../../common/pricing.ts';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { members, outboxMessages, subscriptions, teamInvitations, teamMembers, teamPrices, teamQuotes, teams } from '../../db/schema.ts';

// Teams, their seats' holders, their invitations and what owners charge per seat.

/**
 * A withdrawn invitation keeps its row (it was mailed, so it counts toward the broker's limit) but
 * loses its link: no token, and an expiry set at the withdrawal. One not mailed yet has neither.
 */
const withdrawn = sql`(${teamInvitations.tokenHash} is null and ${teamInvitations.expiresAt} is not null)`;
const waiting = and(isNull(teamInvitations.acceptedAt), sql`not ${withdrawn}`);

export type TeamRow = typeof teams.$inferSelect;
export type InvitationRow = typeof teamInvitations.$inferSelect;
export type QuoteRow = typeof teamQuotes.$inferSelect;

export function createTeamsRepository(db: DatabaseOrTransaction) {
  return {
    async create(values: typeof teams.$inferInsert): Promise<TeamRow> {
      const [row] = await db.insert(teams).values(values).returning();
      return row!;
    },

    /** The latest teams, by name and id (a broadcast's choice of team). */
    async latest(limit: number): Promise<{ id: string; name: string }[]> {
      return db.select({ id: teams.id, name: teams.name }).from(teams).orderBy(desc(teams.createdAt), desc(teams.id)).limit(limit);
    },

    /** A team not paid for yet takes what the broker chose this time (they may come back to checkout with another plan). */
    async choose(
      id: string,
      values: Pick<TeamRow, 'name' | 'tier' | 'period' | 'seats' | 'pricePerSeatCents' | 'quoteId'>,
    ): Promise<TeamRow> {
      const [row] = await db.update(teams).set(values).where(eq(teams.id, id)).returning();
      return row!;
    },

    async find(id: string): Promise<TeamRow | null> {
      const [row] = await db.select().from(teams).where(eq(teams.id, id));
      return row ?? null;
    },

    /** Holds the team's row until the transaction ends: seats are counted and taken one at a time. */
    async lock(id: string): Promise<TeamRow | null> {
      const [row] = await db.select().from(teams).where(eq(teams.id, id)).for('update');
      return row ?? null;
    },

    /** Every team the member manages (their account's deletion ends them all). */
    async idsManagedBy(brokerId: string): Promise<string[]> {
      const rows = await db.select({ id: teams.id }).from(teams).where(eq(teams.brokerId, brokerId));
      return rows.map((row) => row.id);
    },

    /** Deletes the team: its seats and invitations go with it (the caller sets each agent's tier again). */
    async remove(id: string): Promise<void> {
      await db.delete(teams).where(eq(teams.id, id));
    },

    /** The team a broker manages (their latest). */
    async managedBy(brokerId: string): Promise<TeamRow | null> {
      const [row] = await db.select().from(teams).where(eq(teams.brokerId, brokerId)).orderBy(desc(teams.createdAt)).limit(1);
      return row ?? null;
    },

    /** The team whose seat the member holds, if any. */
    async seatOf(memberId: string): Promise<TeamRow | null> {
      const [row] = await db
        .select({ team: teams })
        .from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId))
        .where(eq(teamMembers.memberId, memberId));
      return row?.team ?? null;
    },

    async seatsTaken(teamId: string): Promise<number> {
      const [row] = await db
        .select({ value: sql<number>`count(*)::int` })
        .from(teamMembers)
        .where(eq(teamMembers.teamId, teamId));
      return row?.value ?? 0;
    },

    /** Gives the member a seat; false when they hold one in a team already. */
    async addMember(teamId: string, memberId: string): Promise<boolean> {
      const added = await db
        .insert(teamMembers)
        .values({ teamId, memberId })
        .onConflictDoNothing()
        .returning({ memberId: teamMembers.memberId });
      return added.length > 0;
    },

    async removeMember(teamId: string, memberId: string): Promise<boolean> {
      const removed = await db
        .delete(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.memberId, memberId)))
        .returning({ memberId: teamMembers.memberId });
      return removed.length > 0;
    },

    /** The team's agents, by when they joined (then id), a page after `after`. */
    async agents(teamId: string, limit: number, after?: { joinedAt: string; memberId: string }) {
      return db
        .select({
          id: members.id,
          name: members.name,
          email: members.email,
          timeZone: members.timeZone,
          joinedAt: teamMembers.joinedAt,
          joinedKey: sql<string>`${teamMembers.joinedAt}::text`,
        })
        .from(teamMembers)
        .innerJoin(members, eq(members.id, teamMembers.memberId))
        .where(
          and(
            eq(teamMembers.teamId, teamId),
            after
              ? sql`(${teamMembers.joinedAt}, ${teamMembers.memberId}) > (${after.joinedAt}::timestamptz, ${after.memberId}::uuid)`
              : undefined,
          ),
        )
        .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.memberId))
        .limit(limit);
    },

    /** Every agent's id, a batch after `afterId` (to set each one's tier when the team's status moves). */
    async agentIds(teamId: string, limit: number, afterId?: string): Promise<string[]> {
      const rows = await db
        .select({ id: teamMembers.memberId })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), afterId ? gt(teamMembers.memberId, afterId) : undefined))
        .orderBy(asc(teamMembers.memberId))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** The tier the member's team gives, with the status of its subscription (what effectiveTier weighs). */
    async accessOf(memberId: string): Promise<{ status: SubscriptionStatus; tier: PaidTier }[]> {
      return db
        .select({ status: teams.status, tier: teams.tier })
        .from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId))
        .where(eq(teamMembers.memberId, memberId));
    },

    async saveSubscription(
      teamId: string,
      values: { stripeSubscriptionId?: string; status: SubscriptionStatus; seats: number; currentPeriodEnd: Date | null },
    ): Promise<void> {
      await db.update(teams).set(values).where(eq(teams.id, teamId));
    },

    async findBySubscription(subscriptionId: string): Promise<TeamRow | null> {
      const [row] = await db.select().from(teams).where(eq(teams.stripeSubscriptionId, subscriptionId));
      return row ?? null;
    },

    /**
     * Members on a paid tier that none of their sources gives: not the tier staff gave them, nor the
     * tier of a subscription of theirs or of a team whose seat they hold, in a status that gives access
     * (`accessStatuses`, from the rule in server/billing/membership-tier.ts, which decides each one).
     * A batch by id, after `afterId`.
     */
    async tierWithoutSource(accessStatuses: readonly SubscriptionStatus[], limit: number, afterId?: string): Promise<string[]> {
      const live = sql.join(
        accessStatuses.map((status) => sql`${status}`),
        sql`, `,
      );
      const rows = await db
        .select({ id: members.id })
        .from(members)
        .where(
          and(
            ne(members.membershipTier, 'free'),
            afterId ? gt(members.id, afterId) : undefined,
            or(isNull(members.complimentaryTier), ne(members.complimentaryTier, members.membershipTier)),
            sql`not exists (select 1 from ${subscriptions} where ${subscriptions.memberId} = ${members.id}
              and ${subscriptions.tier} = ${members.membershipTier} and ${subscriptions.status} in (${live}))`,
            sql`not exists (select 1 from ${teamMembers} inner join ${teams} on ${teams.id} = ${teamMembers.teamId}
              where ${teamMembers.memberId} = ${members.id} and ${teams.tier} = ${members.membershipTier} and ${teams.status} in (${live}))`,
          ),
        )
        .orderBy(asc(members.id))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    // ---- Invitations ------------------------------------------------------------------------------

    async invite(teamId: string, email: string): Promise<string> {
      const [row] = await db.insert(teamInvitations).values({ teamId, email }).returning({ id: teamInvitations.id });
      return row!.id;
    },

    /** Gives a waiting invitation its link's token (as a hash) as it is mailed; false when it was taken back or accepted. */
    async armInvitation(id: string, tokenHash: string, expiresAt: Date): Promise<boolean> {
      const armed = await db
        .update(teamInvitations)
        .set({ tokenHash, expiresAt })
        .where(and(eq(teamInvitations.id, id), waiting))
        .returning({ id: teamInvitations.id });
      return armed.length > 0;
    },

    /** The invitation a link's token opens, while it works. */
    async usableInvitation(tokenHash: string): Promise<InvitationRow | null> {
      const [row] = await db
        .select()
        .from(teamInvitations)
        .where(
          and(eq(teamInvitations.tokenHash, tokenHash), isNull(teamInvitations.acceptedAt), gt(teamInvitations.expiresAt, sql`now()`)),
        );
      return row ?? null;
    },

    async markAccepted(id: string): Promise<void> {
      await db
        .update(teamInvitations)
        .set({ acceptedAt: sql`now()` })
        .where(eq(teamInvitations.id, id));
    },

    /** Takes back a waiting invitation: its link stops working at once (and one not mailed yet is never mailed). */
    async withdraw(teamId: string, id: string): Promise<boolean> {
      const gone = await db
        .update(teamInvitations)
        .set({ tokenHash: null, expiresAt: sql`now()` })
        .where(and(eq(teamInvitations.teamId, teamId), eq(teamInvitations.id, id), waiting))
        .returning({ id: teamInvitations.id });
      return gone.length > 0;
    },

    /** Invitations the broker's teams made since then, withdrawn ones included (each was mailed). */
    async invitationsMadeBy(brokerId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ value: sql<number>`count(*)::int` })
        .from(teamInvitations)
        .innerJoin(teams, eq(teams.id, teamInvitations.teamId))
        .where(and(eq(teams.brokerId, brokerId), gt(teamInvitations.createdAt, since)));
      return row?.value ?? 0;
    },

    /** When the team last invited this address, if that invitation still waits and was made since then. */
    async waitingInvitationSince(teamId: string, email: string, since: Date): Promise<Date | null> {
      const [row] = await db
        .select({ createdAt: teamInvitations.createdAt })
        .from(teamInvitations)
        .where(
          and(
            eq(teamInvitations.teamId, teamId),
            gt(teamInvitations.createdAt, since),
            eq(sql`lower(${teamInvitations.email})`, email.toLowerCase()),
            waiting,
          ),
        )
        .orderBy(desc(teamInvitations.createdAt))
        .limit(1);
      return row?.createdAt ?? null;
    },

    /** Messages of this kind queued to the address since then (the outbox keeps each one, sent or not). */
    async mailedTo(kind: string, address: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ value: sql<number>`count(*)::int` })
        .from(outboxMessages)
        .where(
          and(
            eq(sql`lower(${outboxMessages.toAddress})`, address.toLowerCase()),
            eq(outboxMessages.kind, kind),
            gt(outboxMessages.createdAt, since),
          ),
        );
      return row?.value ?? 0;
    },

    /** Invitations not accepted or withdrawn yet, newest first (a page). */
    async waitingInvitations(teamId: string, limit: number) {
      return db
        .select({
          id: teamInvitations.id,
          email: teamInvitations.email,
          createdAt: teamInvitations.createdAt,
          expiresAt: teamInvitations.expiresAt,
        })
        .from(teamInvitations)
        .where(and(eq(teamInvitations.teamId, teamId), waiting))
        .orderBy(desc(teamInvitations.createdAt), desc(teamInvitations.id))
        .limit(limit);
    },

    // ---- Owners' offers to one brokerage -------------------------------------------------------------

    async createQuote(values: typeof teamQuotes.$inferInsert): Promise<QuoteRow> {
      const [row] = await db.insert(teamQuotes).values(values).returning();
      return row!;
    },

    /** The offer, with the team bought with it (if one was paid for). */
    async quote(id: string): Promise<(QuoteRow & { paidTeamId: string | null }) | null> {
      const [row] = await db
        .select({ quote: teamQuotes, paidTeamId: teams.id })
        .from(teamQuotes)
        .leftJoin(teams, and(eq(teams.quoteId, teamQuotes.id), sql`${teams.stripeSubscriptionId} is not null`))
        .where(eq(teamQuotes.id, id));
      return row ? { ...row.quote, paidTeamId: row.paidTeamId } : null;
    },

    /** Offers this staff member made since then. */
    async quotesMadeBy(staffId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ value: sql<number>`count(*)::int` })
        .from(teamQuotes)
        .where(and(eq(teamQuotes.createdById, staffId), gt(teamQuotes.createdAt, since)));
      return row?.value ?? 0;
    },

    /** The offers made in answer to these contact messages (what the Messages tab shows under each). */
    async quotesFor(messageIds: string[]): Promise<QuoteRow[]> {
      if (messageIds.length === 0) return [];
      return db.select().from(teamQuotes).where(inArray(teamQuotes.contactMessageId, messageIds)).orderBy(desc(teamQuotes.createdAt));
    },

    // ---- Prices ------------------------------------------------------------------------------------

    async prices(): Promise<{ tier: PaidTier; period: BillingPeriod; priceCents: number }[]> {
      return db.select({ tier: teamPrices.tier, period: teamPrices.period, priceCents: teamPrices.priceCents }).from(teamPrices);
    },

    async setPrice(tier: PaidTier, period: BillingPeriod, priceCents: number, updatedBy: string): Promise<void> {
      await db
        .insert(teamPrices)
        .values({ tier, period, priceCents, updatedBy })
        .onConflictDoUpdate({ target: [teamPrices.tier, teamPrices.period], set: { priceCents, updatedBy, updatedAt: sql`now()` } });
    },
  };
}
