import { randomUUID } from 'node:crypto';
import { notFound } from '../../common/errors.ts';
import { TEAMS } from '../../common/limits.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { BILLING_PERIODS, formatCents, PAID_TIERS } from '../../common/pricing.ts';
import type { TeamsAdminService } from '../../common/teams.contract.ts';
import { TIER_LABEL } from '../../common/tiers.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import { quoteView, teamPricesOf } from './teams.service.ts';

// Owners set what a seat of a team plan costs, per tier and period; new teams and new seats are
// charged at it (a team keeps the price it bought at). They also answer a brokerage's message with
// an offer of its own: a plan at a price per seat, for the address that wrote, until a date.

const DAY_MS = 24 * 60 * 60 * 1000;

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
