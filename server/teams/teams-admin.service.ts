import { randomUUID } from 'node:crypto';
import { notFound, ServiceError } from '../../common/errors.ts';
import { TEAMS, TYPED_ADDRESS_MAIL } from '../../common/limits.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { BILLING_PERIODS, formatCents, PAID_TIERS } from '../../common/pricing.ts';
import type { TeamsAdminService } from '../../common/teams.contract.ts';
import { TIER_LABEL } from '../../common/tiers.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import { quoteView, teamPricesOf } from './teams.service.ts';

// Owners set what a seat of a team plan costs, per tier and period; new teams and new seats are
// charged at it (a team keeps the price it bought at). They also answer a brokerage's message with
// an offer of its own: a plan at a price per seat, for the address that wrote, until a date.

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An offer mails the address a visitor typed in the contact form: so many a day per staff member, and
 * so many a day to one address (TYPED_ADDRESS_MAIL), counted from the offers and the mail stored.
 */
async function refuseOffersPastLimits(tx: Repositories, staff: { id: string; email: string }, to: string): Promise<void> {
  const { perStaff, perRecipient } = TYPED_ADDRESS_MAIL.teamOffers;
  // Counted under both addresses' hold: offers made at once by two owners, or twice, wait their turn.
  await tx.outbox.holdAddresses([staff.email, to]);
  // By the owner's account, not their address, which they may change.
  if ((await tx.teams.quotesMadeBy(staff.id, new Date(Date.now() - perStaff.windowMs))) >= perStaff.max)
    throw new ServiceError(
      429,
      `You have mailed ${perStaff.max} team offers in the last 24 hours, the most a day: make this one tomorrow.`,
    );
  if ((await tx.teams.mailedTo('team-offer', to, new Date(Date.now() - perRecipient.windowMs))) >= perRecipient.max)
    throw new ServiceError(
      429,
      `${to} has been mailed ${perRecipient.max} team offers in the last 24 hours, the most a day: make this one tomorrow.`,
    );
}

export function createTeamsAdminService({ data, mailer }: { data: DataAccess; mailer: Mailer }): TeamsAdminService {
  return {
    async prices(viewer) {
      requireStaffArea(viewer, 'billing');
      return teamPricesOf(data);
    },

    async setPrices(viewer, input) {
      const staff = requireStaffArea(viewer, 'billing');
      const before = await teamPricesOf(data);
      await data.transaction(async (tx) => {
        for (const tier of PAID_TIERS)
          for (const period of BILLING_PERIODS) await tx.teams.setPrice(tier, period, input[`${tier}_${period}`], staff.email);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'billing.team-prices',
          target: 'team seat prices',
          oldValue: before,
          newValue: input,
        });
      });
      return teamPricesOf(data);
    },

    async makeQuote(viewer, input) {
      const staff = requireStaffArea(viewer, 'billing');
      const message = await data.contact.find(input.message_id);
      if (!message) throw notFound('Message not found');
      // The mail is drawn before the transaction (it renders), so the offer's id is chosen here.
      const values = {
        id: randomUUID(),
        email: message.email.toLowerCase(),
        tier: input.tier,
        period: input.period,
        pricePerSeatCents: input.price_per_seat_cents,
        contactMessageId: message.id,
        createdBy: staff.email,
        createdById: staff.id,
        expiresAt: new Date(Date.now() + input.valid_days * DAY_MS),
      };
      const mail = await mailTemplates.teamOffer({
        name: message.name,
        plan: `${TIER_LABEL[values.tier]} ${values.period}`,
        pricePerSeat: `${formatCents(values.pricePerSeatCents)} per seat ${values.period === 'monthly' ? 'a month' : 'a year'}`,
        minSeats: TEAMS.minSeats,
        until: values.expiresAt,
        offerUrl: mailer.link('/team/new', { quote: values.id }),
      });
      const quote = await data.transaction(async (tx) => {
        await refuseOffersPastLimits(tx, staff, values.email);
        const row = await tx.teams.createQuote(values);
        await mailer.queue(tx, 'team-offer', row.email, mail);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'billing.team-offer',
          target: row.email,
          oldValue: null,
          newValue: { tier: row.tier, period: row.period, price_per_seat_cents: row.pricePerSeatCents, until: row.expiresAt.toISOString() },
        });
        return row;
      });
      mailer.nudge();
      return quoteView(quote);
    },

    async quotesFor(viewer, messageIds) {
      requireStaffArea(viewer, 'billing');
      return (await data.teams.quotesFor(messageIds)).map((row) => quoteView(row));
    },
  };
}
