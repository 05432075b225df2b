import { z } from 'zod';
import { AgentLicenceStanding } from './licence.contract.ts';
import { BillingPeriod, PaidTier, SUBSCRIPTION_STATUSES } from './billing.contract.ts';
import { cursorParam, requiredText } from './fields.ts';
import { TEAMS } from './limits.ts';
import { BILLING_PERIODS, PAID_TIERS } from './pricing.ts';
import type { Viewer } from './viewer.ts';

// Team plans for brokerages (SPEC 9: "Team pricing for 5 or more agents"): a broker buys seats at a
// tier and period, invites agents by email, and each agent holding a seat has the team's tier.

const seats = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(TEAMS.minSeats, `A team plan has ${TEAMS.minSeats} seats or more`)
    .max(TEAMS.maxSeats, `A team plan has ${TEAMS.maxSeats} seats at most: contact us for more`);

export const TeamCheckoutInput = z.object({
  name: requiredText('Team name', TEAMS.nameMax),
  tier: PaidTier,
  period: BillingPeriod,
  seats: seats('Seats'),
  /** The owner's offer to this brokerage, whose plan and price it takes. */
  quote_id: z.uuid({ error: 'This team offer link is not complete.' }).optional(),
});
export type TeamCheckoutInput = z.infer<typeof TeamCheckoutInput>;

export const SeatsInput = z.object({ seats: seats('Seats') });

export const InviteInput = z.object({
  /** Addresses separated by commas, spaces or new lines. */
  emails: z
    .string({ error: 'Give the agents’ email addresses' })
    .max(TEAMS.invitesAtOnce * 120)
    .transform((text) => [
      ...new Set(
        text
          .split(/[\s,;]+/)
          .map((each) => each.trim().toLowerCase())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.email('Each address must be an email address, such as agent@example.com'))
        .min(1, 'Give at least one email address')
        .max(TEAMS.invitesAtOnce, `Invite ${TEAMS.invitesAtOnce} agents at a time at most`),
    ),
});

export const JoinInput = z.object({ token: z.string().min(20, 'This invitation link is not complete.').max(200) });
export const AgentParams = z.object({ id: z.uuid({ error: 'Agent id must be a valid id' }) });
export const InvitationParams = z.object({ id: z.uuid({ error: 'Invitation id must be a valid id' }) });
export const TeamQuery = z.object({ after: cursorParam().optional() });

export const AgentView = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  joined_at: z.string(),
  courses: z.array(z.object({ id: z.string(), title: z.string(), progress_percent: z.number().int() })),
  certificates: z.array(z.object({ code: z.string(), course_title: z.string(), issued_at: z.string() })),
  /** Per licence, whether the agent is on track for its renewal: never its number, never an entry. */
  licences: z.array(AgentLicenceStanding),
});
export type AgentView = z.infer<typeof AgentView>;

export const TeamView = z.object({
  id: z.string(),
  name: z.string(),
  tier: PaidTier,
  period: BillingPeriod,
  seats: z.number().int(),
  seats_taken: z.number().int(),
  price_per_seat_cents: z.number().int(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** Its seats give the team's tier now (the subscription is paid, or in its grace). */
  active: z.boolean(),
  current_period_end: z.string().nullable(),
  agents: z.array(AgentView),
  next_cursor: z.string().nullable(),
  invitations: z.array(z.object({ id: z.string(), email: z.string(), created_at: z.string() })),
});
export type TeamView = z.infer<typeof TeamView>;

/** What a seat costs, per tier and period, in cents (owners set it; the plan's own price until then). */
export const TeamPrices = z.object(
  Object.fromEntries(
    PAID_TIERS.flatMap((tier) =>
      BILLING_PERIODS.map((period) => [
        `${tier}_${period}`,
        z.coerce
          .number({ error: 'A seat’s price must be a number' })
          .int('A seat’s price must be whole cents')
          .min(100, 'A seat costs $1 or more'),
      ]),
    ),
  ) as Record<`${(typeof PAID_TIERS)[number]}_${(typeof BILLING_PERIODS)[number]}`, z.ZodCoercedNumber<unknown>>,
);
export type TeamPrices = z.infer<typeof TeamPrices>;

/** What the join page shows of an invitation, before the agent accepts it. */
export const InvitationView = z.object({ team_name: z.string(), broker_name: z.string(), tier: PaidTier, email: z.string() });
export type InvitationView = z.infer<typeof InvitationView>;

/** An owner's offer to one brokerage, made from its contact message. */
export const TeamQuoteInput = z.object({
  message_id: z.uuid({ error: 'Choose the message to answer.' }),
  tier: PaidTier,
  period: BillingPeriod,
  price_per_seat_cents: z.coerce
    .number({ error: 'The price per seat must be a number' })
    .int('The price per seat must be whole cents')
    .min(100, 'A seat costs $1 or more'),
  valid_days: z.coerce
    .number({ error: 'Give the number of days the offer stands' })
    .int('Give a whole number of days')
    .min(1, 'An offer stands 1 day or more')
    .max(TEAMS.quoteMaxDays, `An offer stands ${TEAMS.quoteMaxDays} days at most`),
});
export type TeamQuoteInput = z.infer<typeof TeamQuoteInput>;

export const TeamQuoteView = z.object({
  id: z.string(),
  email: z.string(),
  tier: PaidTier,
  period: BillingPeriod,
  price_per_seat_cents: z.number().int(),
  expires_at: z.string(),
  /** A team was bought with it. */
  used: z.boolean(),
  contact_message_id: z.string().nullable(),
});
export type TeamQuoteView = z.infer<typeof TeamQuoteView>;

export const QuoteParams = z.object({ id: z.uuid({ error: 'This team offer link is not complete.' }) });

export const QUOTE_NOT_VALID = 'This team offer has ended or was used: contact us for a new one.';
/** Whoever holds an offer's link signed in with another address is not told the address it was made to. */
export const QUOTE_FOR_ANOTHER = 'This team offer was made to another email address: sign in with the address it was mailed to.';
/** A seat, or an offer, is for the owner of the address: an account not confirmed yet is told how to confirm it. */
export const confirmFirst = (email: string, toDo: string) =>
  `Confirm your email address first, to ${toDo}: open the link we mailed to ${email} (your dashboard sends a new one), then come back to this page.`;

export const INVITATION_NOT_VALID = 'This invitation link is not valid: it may have expired, been used, or been withdrawn.';
export const SEATS_TAKEN = 'Every seat of this team is taken: ask your broker to add seats.';
export const TEAM_NOT_ACTIVE = 'This team’s plan is not active: its seats give nothing until it is paid.';
export const NO_TEAM = 'You do not manage a team yet. Buy seats for your agents on the team page.';

export interface TeamsService {
  prices(): Promise<TeamPrices>;
  checkout(viewer: Viewer, input: TeamCheckoutInput): Promise<{ url: string }>;
  /** The broker's team, with a page of its agents; null when they manage none. */
  myTeam(viewer: Viewer, query?: { after?: string }): Promise<TeamView | null>;
  invite(viewer: Viewer, emails: string[]): Promise<{ invited: number }>;
  withdraw(viewer: Viewer, invitationId: string): Promise<void>;
  removeAgent(viewer: Viewer, memberId: string): Promise<void>;
  setSeats(viewer: Viewer, seats: number): Promise<TeamView>;
  /** What an invitation link opens, without using it; null when it does not work. */
  invitation(token: string): Promise<InvitationView | null>;
  join(viewer: Viewer, token: string): Promise<{ team_name: string; tier: (typeof PAID_TIERS)[number] }>;
  /** An owner's offer to this member's brokerage, while it stands; refused for another address. */
  quote(viewer: Viewer, id: string): Promise<TeamQuoteView>;
}

export interface TeamsAdminService {
  prices(viewer: Viewer): Promise<TeamPrices>;
  setPrices(viewer: Viewer, input: TeamPrices): Promise<TeamPrices>;
  /** Makes an offer to the brokerage that wrote the message, and mails it to them. */
  makeQuote(viewer: Viewer, input: TeamQuoteInput): Promise<TeamQuoteView>;
  /** The offers made in answer to these messages, latest first. */
  quotesFor(viewer: Viewer, messageIds: string[]): Promise<TeamQuoteView[]>;
}
