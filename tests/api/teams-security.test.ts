import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPED_ADDRESS_MAIL } from '../../common/limits.ts';
import { INVITATION_NOT_VALID, QUOTE_FOR_ANOTHER, type TeamQuoteView, type TeamView } from '../../common/teams.contract.ts';
import type { Tier } from '../../common/tiers.ts';
import { auditLog, contactMessages, members, staffAccounts, subscriptions, teamInvitations, teams } from '../../db/schema.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { runTierReconciliation, TIER_CHECK_ACTOR } from '../../server/teams/tier-reconciliation.ts';
import { startBillingSite, type BillingSite } from '../helpers/billing-site.ts';
import { linkIn, type TestSmtpServer } from '../helpers/smtp-server.ts';
import type { FakeStripe } from '../helpers/stripe-server.ts';
import { uniqueEmail, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// What an attacker tried on team plans, against the Stripe-compatible server (signed webhooks) and a
// real SMTP server: a team's tier must end with the team however it ends, a seat is for the owner of
// the invited address, mail to typed addresses is limited, and an offer's link does not name its address.

const PUBLIC_URL = 'https://learn.realtypocket.test';
let fake: FakeStripe;
let smtp: TestSmtpServer;
let t: TestApp;
let owner: { authorization: string };

const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: object = {}, payload?: object) =>
  t.app.inject({ method, url, headers: { ...headers }, payload });
const tierOf = async (memberId: string) =>
  (await t.db.select({ tier: members.membershipTier }).from(members).where(eq(members.id, memberId)))[0]!.tier;
const tierEntries = (email: string) =>
  t.db
    .select({ actor: auditLog.actorEmail, from: auditLog.oldValue, to: auditLog.newValue })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'billing.tier'), eq(auditLog.target, email)));

/** A member of this tier (given by staff, as loginAs does) whose address is confirmed. */
async function confirmedMember(tier: Tier, details: { name?: string; email?: string } = {}): Promise<MemberLogin> {
  const login = await t.loginAs(tier, details);
  await t.db.update(members).set({ emailVerifiedAt: new Date() }).where(eq(members.id, login.memberId));
  return login;
}

/** A broker with a paid team of `seats` seats at `tier`; its Stripe subscription's id. */
async function brokerWithTeam(name: string, tier: 'bronze' | 'silver' | 'gold' = 'silver', seats = 5) {
  const broker = await confirmedMember('free', { name: `${name} Broker` });
  const started = await request('POST', '/api/teams/checkout', broker.headers, { name, tier, period: 'monthly', seats });
  expect(started.statusCode, started.body).toBe(200);
  const subscription = await fake.completeCheckout(new URL(started.json<{ url: string }>().url).pathname.split('/').pop()!);
  const team = (await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>();
  expect(team).toMatchObject({ name, active: true, seats });
  return { broker, team, subscriptionId: subscription.id as string };
}

const invite = (broker: MemberLogin, emails: string[]) =>
  request('POST', '/api/teams/mine/invitations', broker.headers, { emails: emails.join(', ') });

/** Invites the address and answers the token of the link it was mailed (the newest). */
async function invitationFor(broker: MemberLogin, email: string): Promise<string> {
  const before = smtp.to(email).length;
  const invited = await invite(broker, [email]);
  expect(invited.statusCode, invited.body).toBe(201);
  const mail = (await smtp.waitFor(email, before + 1)).at(-1)!;
  return new URL(linkIn(mail, `${PUBLIC_URL}/team/join?token=`)).searchParams.get('token')!;
}

/** A confirmed member of this (own) tier who takes a seat of the broker's team. */
async function seatedAgent(broker: MemberLogin, tier: Tier) {
  const agent = await confirmedMember(tier, { email: uniqueEmail(`agent-${tier}`) });
  const joined = await request('POST', '/api/teams/join', agent.headers, { token: await invitationFor(broker, agent.email) });
  expect(joined.statusCode, joined.body).toBe(200);
  return agent;
}

/** A contact message from this address, as the Messages tab has it (its id, for a team offer). */
async function contactMessageFrom(email: string): Promise<string> {
  const [row] = await t.db
    .insert(contactMessages)
    .values({ name: 'Rita Realty', email, subject: 'Team pricing', message: 'We are 12 agents.', ipAddress: '10.0.0.9' })
    .returning({ id: contactMessages.id });
  return row!.id;
}
const offer = (messageId: string, as = owner) =>
  request('POST', '/api/admin/team-quotes', as, {
    message_id: messageId,
    tier: 'gold',
    period: 'yearly',
    price_per_seat_cents: 150000,
    valid_days: 30,
  });

let site: BillingSite;
beforeAll(async () => {
  site = await startBillingSite(PUBLIC_URL);
  ({ t, fake, smtp } = site);
  owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
});
afterAll(() => site.close());

describe('a team’s tier ends with the team, whichever way it ends', () => {
  it('the broker deletes their account: the team and its seats go, its subscription ends at Stripe, and each agent keeps only their own tier', async () => {
    const { broker, team, subscriptionId } = await brokerWithTeam('Departing Realty', 'gold');
    const [bronze, free] = [await seatedAgent(broker, 'bronze'), await seatedAgent(broker, 'free')];
    expect([await tierOf(bronze.memberId), await tierOf(free.memberId)]).toEqual(['gold', 'gold']);

    const deleted = await request('POST', '/api/account/delete', broker.headers, { password: broker.password });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await t.db.select().from(teams).where(eq(teams.id, team.id))).toEqual([]);
    expect(fake.state.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect([await tierOf(bronze.memberId), await tierOf(free.memberId)]).toEqual(['bronze', 'free']);
    expect(await tierEntries(free.email)).toEqual([{ actor: 'deleted member', from: 'gold', to: 'free' }]);

    // Stripe's word that the subscription ended names a team that is gone: acknowledged, nothing given back.
    const ended = await fake.sendEvent('customer.subscription.deleted', fake.state.subscriptions.get(subscriptionId));
    expect(ended.status).toBe(200);
    expect([await tierOf(bronze.memberId), await tierOf(free.memberId)]).toEqual(['bronze', 'free']);
  });

  it('an unpaid subscription, then a deleted one, takes the team’s tier back from each agent, in the audit log', async () => {
    for (const [status, event] of [
      ['unpaid', 'customer.subscription.updated'],
      ['canceled', 'customer.subscription.deleted'],
    ] as const) {
      const { broker, subscriptionId } = await brokerWithTeam(`Lapsing ${status}`, 'silver');
      const agent = await seatedAgent(broker, 'bronze');
      expect(await tierOf(agent.memberId)).toBe('silver');
      const answer = await fake.sendEvent(event, fake.updateSubscriptionState(subscriptionId, { status }));
      expect(answer.status).toBe(200);
      expect(await tierOf(agent.memberId), status).toBe('bronze');
      expect(await tierEntries(agent.email)).toEqual([{ actor: 'Stripe', from: 'silver', to: 'bronze' }]);
    }
  });

  it('a team removed by hand: the next event of its subscription (an unknown team) corrects its agents and ends the subscription', async () => {
    const { broker, team, subscriptionId } = await brokerWithTeam('Vanished Homes', 'gold');
    const agent = await seatedAgent(broker, 'free');
    await t.db.delete(teams).where(eq(teams.id, team.id));
    expect(await tierOf(agent.memberId)).toBe('gold');

    const renewed = await fake.sendEvent('customer.subscription.updated', fake.state.subscriptions.get(subscriptionId));
    expect(renewed.status).toBe(200);
    expect(await tierOf(agent.memberId)).toBe('free');
    expect(await tierEntries(agent.email)).toEqual([{ actor: 'Stripe', from: 'gold', to: 'free' }]);
    // No one pays on for seats that give nothing.
    expect(fake.state.subscriptions.get(subscriptionId)!.status).toBe('canceled');
  });

  it('the daily check finds each member whose tier has no source, corrects it with an audit entry, and leaves the others', async () => {
    // A team removed by hand whose subscription says nothing more, and a tier set by hand.
    const { broker, team } = await brokerWithTeam('Silent Team', 'gold');
    const stranded = await seatedAgent(broker, 'silver');
    await t.db.delete(teams).where(eq(teams.id, team.id));
    const setByHand = await confirmedMember('free');
    await t.db.update(members).set({ membershipTier: 'gold' }).where(eq(members.id, setByHand.memberId));
    // Each source, kept: a tier staff gave, a seat in a paid team, the member's own plan.
    const complimentary = await confirmedMember('gold');
    const { broker: paying } = await brokerWithTeam('Paying Team', 'silver');
    const seated = await seatedAgent(paying, 'free');
    const subscriber = await confirmedMember('free');
    await t.db.update(members).set({ membershipTier: 'bronze' }).where(eq(members.id, subscriber.memberId));
    await t.db.insert(subscriptions).values({
      id: `sub_own_${subscriber.memberId}`,
      memberId: subscriber.memberId,
      customerId: 'cus_own',
      status: 'active',
      tier: 'bronze',
      period: 'monthly',
      priceId: 'price_own',
      amountCents: 2900,
      currency: 'usd',
      currentPeriodEnd: new Date(Date.now() + 86_400_000),
      startedAt: new Date(),
    });

    expect(await runTierReconciliation(t.database, createDataAccess(t.db))).toBe(2);
    expect(await tierOf(stranded.memberId)).toBe('silver');
    expect(await tierOf(setByHand.memberId)).toBe('free');
    expect(await tierEntries(stranded.email)).toEqual([{ actor: TIER_CHECK_ACTOR, from: 'gold', to: 'silver' }]);
    expect(await tierEntries(setByHand.email)).toEqual([{ actor: TIER_CHECK_ACTOR, from: 'gold', to: 'free' }]);
    for (const [member, tier] of [
      [complimentary, 'gold'],
      [seated, 'silver'],
      [subscriber, 'bronze'],
    ] as const) {
      expect(await tierOf(member.memberId)).toBe(tier);
      expect(await tierEntries(member.email)).toEqual([]);
    }
    expect(await runTierReconciliation(t.database, createDataAccess(t.db))).toBe(0);
  });
});

describe('a seat is for the owner of the invited address', () => {
  it('is refused to an account whose address is not confirmed, telling them to confirm it, and given once it is', async () => {
    const { broker } = await brokerWithTeam('Confirmed Only', 'silver');
    const email = uniqueEmail('unconfirmed');
    const token = await invitationFor(broker, email);
    // Someone holding the forwarded link signs up with the invited address, which they cannot read.
    const taker = await t.loginAs('free', { email });
    const refused = await request('POST', '/api/teams/join', taker.headers, { token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toContain('Confirm your email address first, to take your seat');
    expect(await tierOf(taker.memberId)).toBe('free');
    expect((await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>().seats_taken).toBe(0);

    // The owner of the address confirms it from the mail, then joins with the same link.
    expect((await request('POST', '/api/auth/verify-email/resend', taker.headers)).statusCode).toBe(200);
    const confirmation = (await smtp.waitFor(email, 2)).find((mail) => (mail.text ?? '').includes('/verify-email?token='))!;
    const verifyToken = new URL(linkIn(confirmation, `${PUBLIC_URL}/verify-email?token=`)).searchParams.get('token')!;
    expect((await request('POST', '/api/auth/verify-email', {}, { token: verifyToken })).statusCode).toBe(200);
    const joined = await request('POST', '/api/teams/join', taker.headers, { token });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(await tierOf(taker.memberId)).toBe('silver');
  });
});

describe('a withdrawn invitation', () => {
  it('stops its link at once, though it still counts as mailed', async () => {
    const { broker } = await brokerWithTeam('Second Thoughts', 'silver');
    const agent = await confirmedMember('free');
    const token = await invitationFor(broker, agent.email);
    const [waiting] = (await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>().invitations;
    expect((await request('DELETE', `/api/teams/mine/invitations/${waiting!.id}`, broker.headers)).statusCode).toBe(200);
    expect((await request('POST', '/api/teams/invitation', {}, { token })).statusCode).toBe(404);
    const join = await request('POST', '/api/teams/join', agent.headers, { token });
    expect(join.statusCode).toBe(400);
    expect(join.json().detail).toBe(INVITATION_NOT_VALID);
    expect(await tierOf(agent.memberId)).toBe('free');
  });
});

describe('mail to addresses a user typed is limited', () => {
  const { perBrokerPerSeat, perRecipient, sameAgainAfterMs } = TYPED_ADDRESS_MAIL.teamInvitations;

  it(`lets a broker send ${perBrokerPerSeat.max} invitations a day per seat, withdrawn ones counted, then answers 429 and mails nothing`, async () => {
    const { broker } = await brokerWithTeam('Busy Broker', 'bronze', 5);
    const allowed = perBrokerPerSeat.max * 5;
    const first = Array.from({ length: allowed - 1 }, (_, index) => uniqueEmail(`bulk${index}`));
    expect((await invite(broker, first)).statusCode).toBe(201);
    // Taking one back does not give its mail back.
    const waiting = (await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>().invitations;
    expect((await request('DELETE', `/api/teams/mine/invitations/${waiting[0]!.id}`, broker.headers)).statusCode).toBe(200);
    const left = (await request('GET', '/api/teams/mine', broker.headers)).json<TeamView>().invitations;
    expect(left.map((each) => each.id)).not.toContain(waiting[0]!.id);
    expect((await request('DELETE', `/api/teams/mine/invitations/${waiting[0]!.id}`, broker.headers)).statusCode).toBe(404);

    const [over1, over2, last, beyond] = [uniqueEmail('over'), uniqueEmail('over'), uniqueEmail('last'), uniqueEmail('beyond')];
    const tooMany = await invite(broker, [over1, over2]);
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json().detail).toBe(
      `Your team may send ${allowed} invitations a day (${perBrokerPerSeat.max} per seat) and has sent ${allowed - 1} in the last 24 hours: invite 1 more at most now, or the rest tomorrow.`,
    );
    expect((await invite(broker, [last])).statusCode).toBe(201);
    const refused = await invite(broker, [beyond]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toContain('invite more tomorrow, or add seats');

    await smtp.waitFor(last);
    for (const address of [over1, over2, beyond]) expect(smtp.to(address)).toEqual([]);
  });

  it(`lets one address receive ${perRecipient.max} team invitations a day, from every team together`, async () => {
    const target = uniqueEmail('target');
    for (let index = 0; index < perRecipient.max; index++) {
      const { broker } = await brokerWithTeam(`Team ${index + 1} Inviting`, 'bronze');
      expect((await invite(broker, [target])).statusCode).toBe(201);
    }
    const { broker } = await brokerWithTeam('One Team Too Many', 'bronze');
    const refused = await invite(broker, [target]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toBe(`${target} cannot be sent another team invitation today: invite them again tomorrow.`);
    await smtp.waitFor(target, perRecipient.max);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.to(target)).toHaveLength(perRecipient.max);
  });

  it('does not send the same team’s invitation to the same address again within a day', async () => {
    const { broker } = await brokerWithTeam('Patient Broker', 'bronze');
    const agent = uniqueEmail('again');
    expect((await invite(broker, [agent])).statusCode).toBe(201);
    const again = await invite(broker, [agent, uniqueEmail('fresh')]);
    expect(again.statusCode).toBe(429);
    expect(again.json().detail).toMatch(
      new RegExp(
        `^You invited ${agent.replace(/[.+]/g, '\\$&')} less than a day ago, and the link they were sent still works: it can be sent again from `,
      ),
    );
    await smtp.waitFor(agent);

    // A day later, it goes again.
    await t.db
      .update(teamInvitations)
      .set({ createdAt: new Date(Date.now() - sameAgainAfterMs - 60_000) })
      .where(eq(teamInvitations.email, agent));
    expect((await invite(broker, [agent])).statusCode).toBe(201);
    expect(await smtp.waitFor(agent, 2)).toHaveLength(2);
  });

  it('lets owners mail two team offers a day to one address, and twenty a day each', async () => {
    const { perStaff, perRecipient: perAddress } = TYPED_ADDRESS_MAIL.teamOffers;
    const brokerage = uniqueEmail('brokerage');
    const message = await contactMessageFrom(brokerage);
    for (let index = 0; index < perAddress.max; index++) expect((await offer(message)).statusCode).toBe(200);
    const refused = await offer(message);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toBe(
      `${brokerage} has been mailed ${perAddress.max} team offers in the last 24 hours, the most a day: make this one tomorrow.`,
    );

    const owner = await t.loginAsStaff();
    const busy = { authorization: `Bearer ${owner.token}` };
    for (let index = 0; index < perStaff.max; index++)
      expect((await offer(await contactMessageFrom(uniqueEmail(`lead${index}`)), busy)).statusCode).toBe(200);
    const tooMany = await offer(await contactMessageFrom(uniqueEmail('lead')), busy);
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json().detail).toBe(
      `You have mailed ${perStaff.max} team offers in the last 24 hours, the most a day: make this one tomorrow.`,
    );
    // A new address is no new allowance: the offers are counted by the owner's account.
    await t.db
      .update(staffAccounts)
      .set({ email: uniqueEmail('renamed-owner') })
      .where(eq(staffAccounts.id, owner.id));
    expect((await offer(await contactMessageFrom(uniqueEmail('lead')), busy)).statusCode).toBe(429);
  });

  it('answers the contact form at one address a limited number of times a day, from any client address', async () => {
    const { perRecipient: perAddress } = TYPED_ADDRESS_MAIL.contactAnswers;
    const target = uniqueEmail('flooded');
    const write = (from: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: from,
        payload: { name: 'Not Them', email: target, subject: 'Cheap pills', message: 'Visit my site.' },
      });
    for (let index = 0; index < perAddress.max; index++) expect((await write(`10.7.0.${index + 1}`)).statusCode).toBe(201);
    const refused = await write('10.7.1.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toContain(`We have received ${perAddress.max} messages from ${target} in the last 24 hours`);
    await smtp.waitFor(target, perAddress.max);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.to(target)).toHaveLength(perAddress.max);
  });
});

describe('a team offer’s link', () => {
  it('does not tell whoever holds it which address it was made to, and buys only with that address confirmed', async () => {
    const email = uniqueEmail('offered');
    const quote = (await offer(await contactMessageFrom(email))).json<TeamQuoteView>();

    const other = await confirmedMember('free');
    const refused = await request('GET', `/api/teams/quotes/${quote.id}`, other.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(QUOTE_FOR_ANOTHER);
    expect(refused.body).not.toContain(email);
    const visitor = await request('GET', `/api/teams/quotes/${quote.id}`);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.body).not.toContain(email);

    // An account made with the address sees its offer, but buys with it only once the address is confirmed.
    const taker = await t.loginAs('free', { email });
    expect((await request('GET', `/api/teams/quotes/${quote.id}`, taker.headers)).json()).toMatchObject({ tier: 'gold', email });
    const checkout = { name: 'Copied Offer', tier: 'gold', period: 'yearly', seats: 5, quote_id: quote.id };
    const unconfirmed = await request('POST', '/api/teams/checkout', taker.headers, checkout);
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json().detail).toContain('Confirm your email address first, to use this team offer');
    await t.db.update(members).set({ emailVerifiedAt: new Date() }).where(eq(members.id, taker.memberId));
    expect((await request('POST', '/api/teams/checkout', taker.headers, checkout)).statusCode).toBe(200);
  });
});
