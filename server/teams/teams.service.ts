import { z } from 'zod';
import { givesAccess, planName, priceCents } from '../../common/billing.contract.ts';
import { badRequest, conflict, forbidden, notFound, ServiceError } from '../../common/errors.ts';
import { formatDateTime } from '../../common/format.ts';
import { CHECKOUT_LIMIT, TEAMS, TYPED_ADDRESS_MAIL } from '../../common/limits.ts';
import { requireMember } from '../../common/policies.ts';
import { BILLING_PERIODS, PAID_TIERS, type BillingPeriod, type PaidTier } from '../../common/pricing.ts';
import {
  INVITATION_NOT_VALID,
  confirmFirst,
  NO_TEAM,
  QUOTE_FOR_ANOTHER,
  QUOTE_NOT_VALID,
  SEATS_TAKEN,
  TEAM_NOT_ACTIVE,
  type AgentView,
  type TeamPrices,
  type TeamQuoteView,
  type TeamsService,
  type TeamView,
} from '../../common/teams.contract.ts';
import { TIER_LABEL } from '../../common/tiers.ts';
import type { SignedInMember } from '../../common/viewer.ts';
import { stripeFor } from '../billing/billing-views.ts';
import { applyMembershipTier } from '../billing/membership-tier.ts';
import type { StripeGateway } from '../billing/stripe-gateway.ts';
import type { SyncDependencies } from '../billing/subscription-sync.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import { hashSessionToken } from '../sessions/tokens.ts';
import type { QuoteRow, TeamRow } from './teams.repository.ts';
import { syncTeamSubscription } from './team-sync.ts';
import type { ServerLicenceService } from '../licence/licence.service.ts';
import type { AgentLicenceStanding } from '../../common/licence.contract.ts';
import type { ServerLearningService } from '../learning/learning.service.ts';

// Team plans, the broker's side and the agent's: buy seats (a Stripe subscription with a quantity,
// at the seat price owners set), invite agents by email, see each agent's courses, progress and
// certificates (nothing else of theirs), remove an agent (the seat is free again), add or remove
// seats (Stripe prorates); an invited agent joins with the link's button, if a seat is free, under
// the team's lock.

const AgentCursor = z.tuple([TimestampKey, z.uuid()]);

const tooMany = (detail: string) => new ServiceError(429, detail);

/** What a seat costs at each tier and period: what owners set, else the plan's own price. */
export async function teamPricesOf(data: Pick<DataAccess, 'teams'>): Promise<TeamPrices> {
  const set = await data.teams.prices();
  return Object.fromEntries(
    PAID_TIERS.flatMap((tier) =>
      BILLING_PERIODS.map((period) => [
        `${tier}_${period}`,
        set.find((row) => row.tier === tier && row.period === period)?.priceCents ?? priceCents({ tier, period }),
      ]),
    ),
  ) as TeamPrices;
}

export function quoteView(row: QuoteRow & { paidTeamId?: string | null }): TeamQuoteView {
  return {
    id: row.id,
    email: row.email,
    tier: row.tier,
    period: row.period,
    price_per_seat_cents: row.pricePerSeatCents,
    expires_at: row.expiresAt.toISOString(),
    used: Boolean(row.paidTeamId),
    contact_message_id: row.contactMessageId,
  };
}

export function createTeamsService(deps: {
  data: DataAccess;
  gateway: StripeGateway | undefined;
  mailer: Mailer;
  limiter: AttemptLimiter;
  log: SyncDependencies['log'];
  learning: Pick<ServerLearningService, 'recordOf'>;
  /** Whether each agent is on track for their licences' renewal (nothing else of their ledger). */
  licence: Pick<ServerLicenceService, 'agentStandings'>;
}): TeamsService {
  const { data, mailer } = deps;

  /** The team the broker manages; a 404 that says what to do when there is none. */
  async function brokersTeam(member: SignedInMember): Promise<TeamRow> {
    const team = await data.teams.managedBy(member.id);
    if (!team) throw notFound(NO_TEAM);
    return team;
  }

  /**
   * Each agent as their broker sees them: their courses with progress, their certificates, and per
   * licence whether they are on track for its renewal; nothing else.
   */
  async function agentView(
    agent: { id: string; name: string; email: string; joinedAt: Date },
    licences: Map<string, AgentLicenceStanding[]>,
  ): Promise<AgentView> {
    const record = await deps.learning.recordOf(agent.id);
    return {
      id: agent.id,
      name: agent.name,
      email: agent.email,
      joined_at: agent.joinedAt.toISOString(),
      courses: record.enrolments.items.map((course) => ({ id: course.id, title: course.title, progress_percent: course.progress_percent })),
      certificates: record.certificates.items.map(({ code, course_title, issued_at }) => ({ code, course_title, issued_at })),
      licences: licences.get(agent.id) ?? [],
    };
  }

  async function teamView(team: TeamRow, after?: string): Promise<TeamView> {
    const from = after ? decodeCursor(after, AgentCursor) : undefined;
    const [rows, taken, invitations] = await Promise.all([
      data.teams.agents(team.id, TEAMS.agentsPerPage + 1, from && { joinedAt: from[0], memberId: from[1] }),
      data.teams.seatsTaken(team.id),
      data.teams.waitingInvitations(team.id, TEAMS.invitationsShown),
    ]);
    const page = pageOf(
      rows,
      TEAMS.agentsPerPage,
      (row) => [row.joinedKey, row.id],
      (row) => row,
    );
    const licences = await deps.licence.agentStandings(page.items.map((agent) => ({ id: agent.id, timeZone: agent.timeZone })));
    return {
      id: team.id,
      name: team.name,
      tier: team.tier,
      period: team.period,
      seats: team.seats,
      seats_taken: taken,
      price_per_seat_cents: team.pricePerSeatCents,
      status: team.status,
      active: givesAccess(team.status),
      current_period_end: team.currentPeriodEnd?.toISOString() ?? null,
      agents: await Promise.all(page.items.map((agent) => agentView(agent, licences))),
      next_cursor: page.next_cursor,
      invitations: invitations.map((row) => ({ id: row.id, email: row.email, created_at: row.createdAt.toISOString() })),
    };
  }

  /**
   * The owner's offer, for the address it was made to, while it stands and no team was paid with it.
   * Whoever holds the link without that address is not told the address; buying with it takes the
   * address confirmed, as a seat does.
   */
  async function usableQuote(member: SignedInMember, id: string, use: 'view' | 'buy') {
    const quote = await data.teams.quote(id);
    if (!quote) throw notFound(QUOTE_NOT_VALID);
    const account = await data.members.findAccount({ id: member.id });
    if (!account || quote.email !== account.email.toLowerCase()) throw forbidden(QUOTE_FOR_ANOTHER);
    if (use === 'buy' && !account.emailVerifiedAt) throw forbidden(confirmFirst(account.email, 'use this team offer'));
    if (quote.paidTeamId || quote.expiresAt.getTime() <= Date.now()) throw conflict(QUOTE_NOT_VALID);
    return quote;
  }

  /**
   * Mail to addresses the broker typed, per TYPED_ADDRESS_MAIL: so many a day for the broker (by
   * their team's seats), so many a day to one address from every team, and not the same team's
   * invitation to the same address again within a day. Counted under the team's lock, from what was
   * stored (withdrawn invitations and queued mail included), so no process or withdrawal resets it.
   */
  async function refuseInvitationsPastLimits(tx: Repositories, team: TeamRow, emails: string[]): Promise<void> {
    const { perBrokerPerSeat, perRecipient, sameAgainAfterMs } = TYPED_ADDRESS_MAIL.teamInvitations;
    // The per-address count spans every team: two brokers inviting one address at once wait their turn.
    await tx.outbox.holdAddresses(emails);
    const allowed = perBrokerPerSeat.max * team.seats;
    const made = await tx.teams.invitationsMadeBy(team.brokerId, new Date(Date.now() - perBrokerPerSeat.windowMs));
    if (made + emails.length > allowed)
      throw tooMany(
        `Your team may send ${allowed} invitations a day (${perBrokerPerSeat.max} per seat) and has sent ${made} in the last 24 hours: ` +
          (made < allowed ? `invite ${allowed - made} more at most now, or the rest tomorrow.` : 'invite more tomorrow, or add seats.'),
      );
    for (const email of emails) {
      const last = await tx.teams.waitingInvitationSince(team.id, email, new Date(Date.now() - sameAgainAfterMs));
      if (last)
        throw tooMany(
          `You invited ${email} less than a day ago, and the link they were sent still works: it can be sent again from ${formatDateTime(new Date(last.getTime() + sameAgainAfterMs))}.`,
        );
      if ((await tx.teams.mailedTo('team-invitation', email, new Date(Date.now() - perRecipient.windowMs))) >= perRecipient.max)
        throw tooMany(`${email} cannot be sent another team invitation today: invite them again tomorrow.`);
    }
  }

  return {
    prices: () => teamPricesOf(data),

    async quote(viewer, id) {
      return quoteView(await usableQuote(requireMember(viewer), id, 'view'));
    },

    async checkout(viewer, input) {
      const member = requireMember(viewer);
      await deps.limiter.check('checkout', member.id, CHECKOUT_LIMIT);
      const { gateway, stripe } = stripeFor(deps);
      const managed = await data.teams.managedBy(member.id);
      if (managed && givesAccess(managed.status))
        throw conflict('You already manage a team: add seats on your team page instead of buying another.');
      // An owner's offer sets the plan and the price; otherwise the broker's choice at the listed price.
      const quote = input.quote_id ? await usableQuote(member, input.quote_id, 'buy') : null;
      const plan: { tier: PaidTier; period: BillingPeriod } = quote ?? { tier: input.tier, period: input.period };
      const perSeat = quote?.pricePerSeatCents ?? (await teamPricesOf(data))[`${plan.tier}_${plan.period}`];
      const price = await gateway.teamSeatPrice(plan, perSeat, quote?.id);
      const account = await data.members.findAccount({ id: member.id });
      if (!account) throw notFound('Member not found');
      // The broker's customer, as for their own membership (made once).
      const customer =
        account.stripeCustomerId ??
        (await data.members.linkStripeCustomer(
          member.id,
          (
            await stripe.customers.create(
              { email: account.email, name: account.name, metadata: { member_id: member.id } },
              { idempotencyKey: `realtypocket-customer-${member.id}` },
            )
          ).id,
        )) ??
        '';
      const chosen = { name: input.name, tier: plan.tier, period: plan.period, seats: input.seats, pricePerSeatCents: perSeat };
      // A team whose checkout was left takes this choice; another offer's team is never reused.
      const team =
        managed && !managed.stripeSubscriptionId
          ? await data.teams.choose(managed.id, { ...chosen, quoteId: quote?.id ?? null })
          : await data.teams.create({ ...chosen, brokerId: member.id, quoteId: quote?.id ?? null });
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: member.id,
        line_items: [{ price: price.id, quantity: input.seats }],
        subscription_data: { metadata: { team_id: team.id, member_id: member.id } },
        metadata: { team_id: team.id, member_id: member.id },
        success_url: mailer.link('/team', { checkout: 'success' }),
        cancel_url: mailer.link('/team/new'),
      });
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
      return { url: session.url };
    },

    async myTeam(viewer, query = {}) {
      const member = requireMember(viewer);
      const team = await data.teams.managedBy(member.id);
      return team ? teamView(team, query.after) : null;
    },

    async invite(viewer, emails) {
      const member = requireMember(viewer);
      const team = await brokersTeam(member);
      if (!givesAccess(team.status)) throw conflict(TEAM_NOT_ACTIVE);
      const broker = await data.members.findAccount({ id: member.id });
      await data.transaction(async (tx) => {
        // Counted under the team's lock: two requests at once never both take the last invitations of the day.
        await refuseInvitationsPastLimits(tx, (await tx.teams.lock(team.id)) ?? team, emails);
        for (const email of emails) {
          const invitationId = await tx.teams.invite(team.id, email);
          const mail = await mailTemplates.teamInvitation({
            team: team.name,
            broker: broker?.name ?? member.name,
            tier: TIER_LABEL[team.tier],
            joinUrl: mailer.tokenLink('/team/join'),
          });
          await mailer.queue(tx, 'team-invitation', email, mail, {
            grant: { kind: 'team-invitation', invitationId, ttlMs: TEAMS.invitationTtlMs },
          });
        }
        await tx.audit.record({ actorEmail: member.email, action: 'team.invite', target: team.name, oldValue: null, newValue: emails });
      });
      mailer.nudge();
      return { invited: emails.length };
    },

    async withdraw(viewer, invitationId) {
      const team = await brokersTeam(requireMember(viewer));
      if (!(await data.teams.withdraw(team.id, invitationId))) throw notFound('Invitation not found');
    },

    async removeAgent(viewer, agentId) {
      const member = requireMember(viewer);
      const team = await brokersTeam(member);
      await data.transaction(async (tx) => {
        await tx.teams.lock(team.id);
        if (!(await tx.teams.removeMember(team.id, agentId))) throw notFound('This agent does not hold a seat in your team.');
        const change = await applyMembershipTier(tx, agentId);
        await tx.audit.record({
          actorEmail: member.email,
          action: 'team.remove',
          target: team.name,
          oldValue: { agent: agentId, tier: change?.from ?? null },
          newValue: { tier: change?.to ?? null },
        });
      });
    },

    async setSeats(viewer, seats) {
      const member = requireMember(viewer);
      const team = await brokersTeam(member);
      const { stripe, sync } = stripeFor(deps);
      if (!team.stripeSubscriptionId || !givesAccess(team.status)) throw conflict(TEAM_NOT_ACTIVE);
      const taken = await data.teams.seatsTaken(team.id);
      if (seats < taken) throw badRequest(`${taken} agents hold seats: remove agents before going below ${taken} seats.`, 'seats');
      const item = (await stripe.subscriptions.retrieve(team.stripeSubscriptionId)).items.data[0];
      if (!item) throw new Error(`Stripe subscription ${team.stripeSubscriptionId} has no items`);
      // Added seats are charged for what is left of the period now; removed ones credit the next invoice.
      await stripe.subscriptions.update(team.stripeSubscriptionId, {
        items: [{ id: item.id, quantity: seats }],
        proration_behavior: seats > team.seats ? 'always_invoice' : 'create_prorations',
      });
      await data.transaction(async (tx) => {
        await tx.billing.lockSubscription(team.stripeSubscriptionId!);
        const fresh = await sync.gateway.stripe.subscriptions.retrieve(team.stripeSubscriptionId!);
        await syncTeamSubscription(tx, fresh, member.email);
        await tx.audit.record({ actorEmail: member.email, action: 'team.seats', target: team.name, oldValue: team.seats, newValue: seats });
      });
      return teamView((await data.teams.find(team.id))!);
    },

    async invitation(token) {
      const invitation = await data.teams.usableInvitation(hashSessionToken(token));
      if (!invitation) return null;
      const team = await data.teams.find(invitation.teamId);
      const broker = team && (await data.members.findAccount({ id: team.brokerId }));
      return team ? { team_name: team.name, broker_name: broker?.name ?? '', tier: team.tier, email: invitation.email } : null;
    },

    async join(viewer, token) {
      const member = requireMember(viewer);
      const tokenHash = hashSessionToken(token);
      const invitation = await data.teams.usableInvitation(tokenHash);
      if (!invitation) throw badRequest(INVITATION_NOT_VALID);
      // The seat is for the address invited, once its owner confirmed it: a forwarded link, or an
      // account made with the address by someone who cannot read its mail, gives nothing.
      const account = await data.members.findAccount({ id: member.id });
      if (!account || invitation.email.toLowerCase() !== account.email.toLowerCase())
        throw forbidden(`This invitation is for ${invitation.email}: sign in with that address to join.`);
      if (!account.emailVerifiedAt) throw forbidden(confirmFirst(account.email, 'take your seat'));
      return data.transaction(async (tx: Repositories) => {
        const team = await tx.teams.lock(invitation.teamId);
        if (!team) throw badRequest(INVITATION_NOT_VALID);
        if (!givesAccess(team.status)) throw conflict(TEAM_NOT_ACTIVE);
        // Counted under the team's lock: two agents joining at once never take one seat twice.
        if ((await tx.teams.seatsTaken(team.id)) >= team.seats) throw conflict(SEATS_TAKEN);
        if (!(await tx.teams.addMember(team.id, member.id))) throw conflict('You already hold a seat in a team.');
        await tx.teams.markAccepted(invitation.id);
        const change = await applyMembershipTier(tx, member.id);
        await tx.audit.record({
          actorEmail: member.email,
          action: 'team.join',
          target: team.name,
          oldValue: change?.from ?? null,
          newValue: `${planName({ tier: team.tier, period: team.period })}, ${change?.to ?? 'no change'}`,
        });
        return { team_name: team.name, tier: team.tier };
      });
    },
  };
}
