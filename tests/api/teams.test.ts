import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVITATION_NOT_VALID,
  NO_TEAM,
  QUOTE_FOR_ANOTHER,
  QUOTE_NOT_VALID,
  SEATS_TAKEN,
  type TeamQuoteView,
  type TeamView,
} from '../../common/teams.contract.ts';
import { contactMessages, members, outboxMessages, subscriptions, teamQuotes } from '../../db/schema.ts';
import { sendDueBroadcasts } from '../../server/broadcasts/broadcast-sender.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { startBillingSite, type BillingSite } from '../helpers/billing-site.ts';
import { linkIn, type TestSmtpServer } from '../helpers/smtp-server.ts';
import type { FakeStripe } from '../helpers/stripe-server.ts';
import { uniqueEmail, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Team plans against the Stripe-compatible server: a broker buys seats, invites agents by email,
// agents join with the mailed link and have the team's tier while they hold a seat; seats are counted
// under the team's lock; removing an agent or the team ending leaves each agent their own tier.

const PUBLIC_URL = 'https://learn.realtypocket.test';
let fake: FakeStripe;
let smtp: TestSmtpServer;
let t: TestApp;
let broker: MemberLogin;
let team: TeamView;

const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: object = {}, payload?: object) =>
  t.app.inject({ method, url, headers: { ...headers }, payload });
const tierOf = async (memberId: string) =>
  (await t.db.select({ tier: members.membershipTier }).from(members).where(eq(members.id, memberId)))[0]!.tier;

/** A member of this tier who confirmed their email address (seats and offers are for confirmed addresses). */
async function confirmedMember(tier: 'free' | 'bronze' | 'silver' | 'gold', details: { name?: string; email?: string } = {}) {
  const login = await t.loginAs(tier, details);
  await t.db.update(members).set({ emailVerifiedAt: new Date() }).where(eq(members.id, login.memberId));
  return login;
}

/** Invites the address and answers the token of the link the agent was mailed. */
async function invitationFor(email: string): Promise<string> {
  expect((await request('POST', '/api/teams/mine/invitations', broker.headers, { emails: email })).statusCode).toBe(201);
  const [mail] = await smtp.waitFor(email);
  return new URL(linkIn(mail!, `${PUBLIC_URL}/team/join?token=`)).searchParams.get('token')!;
}

let site: BillingSite;
beforeAll(async () => {
  site = await startBillingSite(PUBLIC_URL);
  ({ t, fake, smtp } = site);
  broker = await t.loginAs('free', { name: 'Brenda Broker' });
});
afterAll(() => site.close());

describe('a broker', () => {
  it('buys 5 or more seats at a tier and period, and the seats are theirs to give, not their own tier', async () => {
    expect(
      (await request('POST', '/api/teams/checkout', broker.headers, { name: 'Lone Star', tier: 'silver', period: 'monthly', seats: 4 }))
        .statusCode,
    ).toBe(400);
    const started = await request('POST', '/api/teams/checkout', broker.headers, {
      name: 'Lone Star Realty',
      tier: 'silver',
      period: 'monthly',
      seats: 5,
    });
    expect(started.statusCode, started.body).toBe(200);
    const call = fake.calls.findLast((each) => each.path === '/v1/checkout/sessions' && each.method === 'POST')!;
    expect((call.params.line_items as { quantity: string }[])[0]!.quantity).toBe('5');
    await fake.completeCheckout(new URL(started.json<{ url: string }>().url).pathname.split('/').pop()!);

    team = (await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>();
    expect(team).toMatchObject({
      name: 'Lone Star Realty',
      tier: 'silver',
      seats: 5,
      seats_taken: 0,
      active: true,
      price_per_seat_cents: 7900,
    });
    // The team's subscription is not the broker's membership.
    expect(await tierOf(broker.memberId)).toBe('free');
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.memberId, broker.memberId))).toEqual([]);
  });

  it('invites an agent by email, who joins with the mailed link and has the team’s tier, keeping their account', async () => {
    const agent = await confirmedMember('bronze', { name: 'Andy Agent' });
    const token = await invitationFor(agent.email);
    const view = await request('POST', '/api/teams/invitation', {}, { token });
    expect(view.json()).toMatchObject({ team_name: 'Lone Star Realty', broker_name: 'Brenda Broker', tier: 'silver' });

    expect((await request('POST', '/api/teams/join', {}, { token })).statusCode).toBe(401);
    const stranger = await t.loginAs('free');
    const forwarded = await request('POST', '/api/teams/join', stranger.headers, { token });
    expect(forwarded.statusCode).toBe(403);
    expect(forwarded.json().detail).toContain(`This invitation is for ${agent.email}`);

    const joined = await request('POST', '/api/teams/join', agent.headers, { token });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(await tierOf(agent.memberId)).toBe('silver');
    // The link works once.
    expect((await request('POST', '/api/teams/join', agent.headers, { token })).json().detail).toBe(INVITATION_NOT_VALID);

    const mine = (await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>();
    expect(mine.seats_taken).toBe(1);
    expect(mine.agents).toEqual([expect.objectContaining({ name: 'Andy Agent', email: agent.email, courses: [], certificates: [] })]);
    // The agent's own progress shows to the broker, and nothing else of theirs.
    await request('POST', '/api/courses/first-90-days/enrol', agent.headers);
    await request('POST', '/api/lessons/first-90-days-l1/complete', agent.headers);
    const withProgress = (await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>();
    expect(withProgress.agents[0]!.courses).toEqual([
      expect.objectContaining({ id: 'first-90-days', progress_percent: expect.any(Number) }),
    ]);
    expect(Object.keys(withProgress.agents[0]!).sort()).toEqual([
      'certificates',
      'courses',
      'email',
      'id',
      'joined_at',
      'licences',
      'name',
    ]);
  });

  it('gives the last seat to one of two agents who join at the same moment; the other is told every seat is taken', async () => {
    const agents = await Promise.all([1, 2, 3, 4, 5].map((n) => confirmedMember('free', { email: uniqueEmail(`seat${n}`) })));
    const tokens: string[] = [];
    for (const agent of agents) tokens.push(await invitationFor(agent.email));
    // Three more seats after Andy: three join one by one, then two race for the fifth.
    for (const index of [0, 1, 2])
      expect((await request('POST', '/api/teams/join', agents[index]!.headers, { token: tokens[index] })).statusCode).toBe(200);
    const raced = await Promise.all(
      [3, 4].map((index) => request('POST', '/api/teams/join', agents[index]!.headers, { token: tokens[index] })),
    );
    expect(raced.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(raced.find((answer) => answer.statusCode === 409)!.json().detail).toBe(SEATS_TAKEN);
    expect((await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>().seats_taken).toBe(5);
  });

  it('adds seats (charged for what is left of the period) and never goes below the seats held', async () => {
    const below = await request('PUT', '/api/teams/mine/seats', broker.headers, { seats: 4 });
    expect(below.statusCode).toBe(400);
    const more = await request('PUT', '/api/teams/mine/seats', broker.headers, { seats: 7 });
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json<TeamView>()).toMatchObject({ seats: 7, seats_taken: 5 });
    const subscription = [...fake.state.subscriptions.values()].find((each) => each.metadata?.team_id === team.id);
    expect(subscription.items.data[0].quantity).toBe(7);
  });

  it('removes an agent, whose seat is free again and who keeps only their own tier', async () => {
    const andy = (await request('GET', '/api/teams/mine', broker.headers))
      .json<TeamView>()
      .agents.find((each) => each.name === 'Andy Agent')!;
    expect((await request('DELETE', `/api/teams/mine/agents/${andy.id}`, broker.headers)).statusCode).toBe(200);
    expect(await tierOf(andy.id)).toBe('bronze');
    expect((await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>().seats_taken).toBe(4);
    expect((await request('DELETE', `/api/teams/mine/agents/${andy.id}`, broker.headers)).statusCode).toBe(404);
  });

  it('can be written to by staff: a broadcast to the team reaches its agents and no one else', async () => {
    const owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    const outsider = await t.loginAs('silver');
    const holders = (await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>().agents;
    const made = await request('POST', '/api/admin/broadcasts', owner, {
      subject: 'For Lone Star agents',
      body: 'Welcome to the team.',
      audience: ['free', 'bronze', 'silver', 'gold'],
      team_id: team.id,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect((await request('POST', `/api/admin/broadcasts/${made.json().id}/send`, owner, {})).statusCode).toBe(200);
    await sendDueBroadcasts(createDataAccess(t.db), createMailer({ publicUrl: PUBLIC_URL, nudge: () => {} }));
    const reached = await t.db
      .select({ to: outboxMessages.toAddress })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.kind, 'broadcast'), eq(outboxMessages.subject, 'For Lone Star agents')));
    expect(reached.map((row) => row.to).sort()).toEqual(holders.map((holder) => holder.email).sort());
    expect(reached.map((row) => row.to)).not.toContain(outsider.email);
  });

  it('leaves every agent their own tier when the team’s plan ends', async () => {
    const holders = (await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>().agents;
    expect(holders.length).toBeGreaterThan(0);
    for (const holder of holders) expect(await tierOf(holder.id)).toBe('silver');
    const subscription = [...fake.state.subscriptions.values()].find((each) => each.metadata?.team_id === team.id);
    const ended = fake.updateSubscriptionState(subscription.id, { status: 'canceled' });
    await fake.sendEvent('customer.subscription.deleted', ended);
    for (const holder of holders) expect(await tierOf(holder.id)).toBe('free');
    expect((await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>()).toMatchObject({ active: false, status: 'canceled' });
    expect((await request('POST', '/api/teams/mine/invitations', broker.headers, { emails: 'late@example.com' })).statusCode).toBe(409);
  });
});

describe('a brokerage that wrote to us', () => {
  it('gets an owner’s team offer by email, for its address only, bought once at its price', async () => {
    const email = uniqueEmail('brokerage');
    expect(
      (
        await request(
          'POST',
          '/api/contact',
          {},
          {
            name: 'Rita Realty',
            email,
            subject: 'Team pricing',
            message: 'We are 12 agents in Austin. What would Gold cost us?',
          },
        )
      ).statusCode,
    ).toBe(201);
    const [message] = await t.db.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.email, email));
    const offer = { message_id: message!.id, tier: 'gold', period: 'yearly', price_per_seat_cents: 150000, valid_days: 30 };

    const editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
    expect((await request('POST', '/api/admin/team-quotes', editor, offer)).statusCode).toBe(403);
    const owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    const tooCheap = await request('POST', '/api/admin/team-quotes', owner, { ...offer, price_per_seat_cents: 50 });
    expect(tooCheap.statusCode).toBe(400);
    expect(tooCheap.body).toContain('A seat costs $1 or more');
    expect((await request('POST', '/api/admin/team-quotes', owner, { ...offer, valid_days: 0 })).statusCode).toBe(400);
    const made = await request('POST', '/api/admin/team-quotes', owner, offer);
    expect(made.statusCode, made.body).toBe(200);
    const quote = made.json<TeamQuoteView>();
    expect(quote).toMatchObject({ email, tier: 'gold', period: 'yearly', price_per_seat_cents: 150000, used: false });

    // After the acknowledgement of their message, the offer.
    const mail = (await smtp.waitFor(email, 2)).find((each) => each.subject === 'Your team offer from RealtyPocket');
    expect(mail!.text).toContain('Gold yearly memberships for your agents at $1,500 per seat a year, for 5 seats or more');
    expect(linkIn(mail!, `${PUBLIC_URL}/team/new?quote=`)).toBe(`${PUBLIC_URL}/team/new?quote=${quote.id}`);

    // Another member cannot use it, even with the link.
    const other = await t.loginAs('free');
    const refused = await request('GET', `/api/teams/quotes/${quote.id}`, other.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(QUOTE_FOR_ANOTHER);
    expect(
      (
        await request('POST', '/api/teams/checkout', other.headers, {
          name: 'Copycat',
          tier: 'gold',
          period: 'yearly',
          seats: 5,
          quote_id: quote.id,
        })
      ).statusCode,
    ).toBe(403);

    // The brokerage signs up with the address it wrote from, and buys at the offer's plan and price.
    const rita = await confirmedMember('free', { email, name: 'Rita Realty' });
    expect((await request('GET', `/api/teams/quotes/${quote.id}`, rita.headers)).json()).toMatchObject({ tier: 'gold', used: false });
    const started = await request('POST', '/api/teams/checkout', rita.headers, {
      name: 'Austin Realty Group',
      tier: 'bronze',
      period: 'monthly',
      seats: 12,
      quote_id: quote.id,
    });
    expect(started.statusCode, started.body).toBe(200);
    const priceCall = fake.calls.findLast((each) => each.path === '/v1/prices' && each.method === 'POST')!;
    expect(priceCall.params).toMatchObject({ unit_amount: '150000', lookup_key: `realtypocket_team_offer_${quote.id}` });
    await fake.completeCheckout(new URL(started.json<{ url: string }>().url).pathname.split('/').pop()!);
    expect((await request('GET', '/api/teams/mine', rita.headers)).json()).toMatchObject({
      name: 'Austin Realty Group',
      tier: 'gold',
      period: 'yearly',
      seats: 12,
      price_per_seat_cents: 150000,
      active: true,
    });
    // The listed seat price kept its own key.
    expect((await request('GET', '/api/teams/prices')).json().gold_yearly).not.toBe(150000);

    // Bought once: the link now says so.
    const used = await request('GET', `/api/teams/quotes/${quote.id}`, rita.headers);
    expect(used.statusCode).toBe(409);
    expect(used.json().detail).toBe(QUOTE_NOT_VALID);
  });

  it('refuses an offer past its date', async () => {
    const email = uniqueEmail('late');
    await t.db
      .insert(contactMessages)
      .values({ name: 'Late Larry', email, subject: 'Team pricing', message: 'Still on?', ipAddress: '10.0.0.9' });
    const [message] = await t.db.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.email, email));
    const owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    const quote = (
      await request('POST', '/api/admin/team-quotes', owner, {
        message_id: message!.id,
        tier: 'silver',
        period: 'monthly',
        price_per_seat_cents: 5900,
        valid_days: 1,
      })
    ).json<TeamQuoteView>();
    await t.db
      .update(teamQuotes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(teamQuotes.id, quote.id));
    const larry = await confirmedMember('free', { email });
    const late = await request('POST', '/api/teams/checkout', larry.headers, {
      name: 'Larry & Co',
      tier: 'silver',
      period: 'monthly',
      seats: 5,
      quote_id: quote.id,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toBe(QUOTE_NOT_VALID);
    expect((await request('GET', `/api/teams/quotes/not-an-id`, larry.headers)).statusCode).toBe(400);
  });
});

describe('who may', () => {
  it('refuses visitors, says a member without a team has none, and lets only owners set seat prices', async () => {
    expect((await request('GET', '/api/teams/mine')).statusCode).toBe(401);
    const nobody = await t.loginAs('silver');
    const none = await request('GET', '/api/teams/mine', nobody.headers);
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toBe(NO_TEAM);
    expect((await request('POST', '/api/teams/mine/invitations', nobody.headers, { emails: 'x@example.com' })).statusCode).toBe(404);
    const badEmails = await request('POST', '/api/teams/mine/invitations', broker.headers, { emails: 'not-an-address' });
    expect(badEmails.statusCode).toBe(400);

    const prices = {
      bronze_monthly: 2500,
      bronze_yearly: 25000,
      silver_monthly: 6900,
      silver_yearly: 69000,
      gold_monthly: 12900,
      gold_yearly: 129000,
    };
    const editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
    expect((await request('PUT', '/api/admin/team-prices', editor, prices)).statusCode).toBe(403);
    const owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    const tooLow = await request('PUT', '/api/admin/team-prices', owner, { ...prices, gold_monthly: 50 });
    expect(tooLow.statusCode).toBe(400);
    expect(tooLow.body).toContain('A seat costs $1 or more');
    expect((await request('PUT', '/api/admin/team-prices', owner, prices)).json()).toEqual(prices);
    expect((await request('GET', '/api/teams/prices')).json()).toEqual(prices);
  });
});
