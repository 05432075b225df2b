import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFER_NOT_VALID, type OfferView, type PublicOffer } from '../../common/offers.contract.ts';
import { members, subscriptions } from '../../db/schema.ts';
import { startFakeStripe, type FakeStripe } from '../helpers/stripe-server.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Free trials and offer codes against the Stripe-compatible server: owners make offers (a coupon and
// its promotion code in Stripe) and set trials; checkout applies them; an account has one trial ever;
// an offer's limits, end date and plans hold; owners see each offer's uses and revenue, and can end it.

let fake: FakeStripe;
let t: TestApp;
let owner: { authorization: string };
let editor: { authorization: string };

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp({
    env: { STRIPE_SECRET_KEY: fake.secretKey, STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_BASE: fake.url },
  });
  fake.setWebhookTarget(`${await listen(t.app)}/api/billing/webhook`);
  owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const request = (method: 'GET' | 'POST' | 'PUT', url: string, headers: object = {}, payload?: object) =>
  t.app.inject({ method, url, headers: { ...headers }, payload });

const offer = (code: string, extra: object = {}) => ({
  code,
  name: `Offer ${code}`,
  percent_off: 20,
  duration: 'repeating',
  duration_months: 3,
  plans: ['silver_monthly', 'silver_yearly'],
  ...extra,
});

async function checkout(member: MemberLogin, body: object) {
  const answer = await request('POST', '/api/billing/checkout', member.headers, body);
  return { answer, sessionId: answer.statusCode === 200 ? new URL(answer.json<{ url: string }>().url).pathname.split('/').pop()! : null };
}

describe('offers', () => {
  it('are made by owners only, as a coupon for the plans’ products and a promotion code in Stripe', async () => {
    const made = await request('POST', '/api/admin/offers', owner, offer('SPRING20', { max_uses: 2 }));
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json<OfferView>()).toMatchObject({
      code: 'SPRING20',
      label: '20% off for 3 months',
      uses: 0,
      revenue_cents: 0,
      active: true,
    });
    const coupon = [...fake.state.coupons.values()].find((each) => each.metadata?.code === 'SPRING20');
    expect(coupon).toMatchObject({ percent_off: 20, duration: 'repeating', duration_in_months: 3 });
    const code = [...fake.state.promotionCodes.values()].find((each) => each.code === 'SPRING20');
    expect(code).toMatchObject({ active: true, max_redemptions: 2 });

    expect((await request('POST', '/api/admin/offers', editor, offer('EDITOR10'))).statusCode).toBe(403);
    const member = await t.loginAs('free');
    expect((await request('POST', '/api/admin/offers', member.headers, offer('MEMBER10'))).statusCode).toBe(403);
    const taken = await request('POST', '/api/admin/offers', owner, offer('spring20'));
    expect(taken.statusCode).toBe(409);
    const both = await request('POST', '/api/admin/offers', owner, offer('BOTH10', { amount_off_cents: 1000 }));
    expect(both.statusCode).toBe(400);
    expect(both.json().detail).toContain('Give either a percent off or an amount off');
    const past = await request('POST', '/api/admin/offers', owner, offer('PAST10', { ends_on: '2020-01-01' }));
    expect(past.statusCode).toBe(409);
  });

  it('show each plan’s price with the offer, for anyone, while the code can be used', async () => {
    const shown = await request('GET', '/api/offers/spring20');
    expect(shown.statusCode).toBe(200);
    expect(shown.json<PublicOffer>().plans).toEqual([
      { plan: 'silver_monthly', price_cents: 7900, offer_price_cents: 6320 },
      { plan: 'silver_yearly', price_cents: 79000, offer_price_cents: 63200 },
    ]);
    const unknown = await request('GET', '/api/offers/NOSUCHCODE');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe(OFFER_NOT_VALID);
  });

  it('is applied at checkout, shown on the billing page, and counted with what it brought', async () => {
    const member = await t.loginAs('free');
    const { answer, sessionId } = await checkout(member, { tier: 'silver', period: 'monthly', offer: 'spring20' });
    expect(answer.statusCode, answer.body).toBe(200);
    const call = fake.calls.findLast((each) => each.path === '/v1/checkout/sessions' && each.method === 'POST')!;
    expect(call.params.discounts).toEqual([
      { promotion_code: [...fake.state.promotionCodes.values()].find((each) => each.code === 'SPRING20').id },
    ]);
    await fake.completeCheckout(sessionId!);

    const overview = (await request('GET', '/api/billing/overview', member.headers)).json();
    expect(overview.offer).toEqual({ code: 'SPRING20', label: '20% off for 3 months' });
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.memberId, member.memberId));
    expect(row?.offerId).not.toBeNull();
    const listed = (await request('GET', '/api/admin/offers', owner)).json<OfferView[]>().find((each) => each.code === 'SPRING20')!;
    expect(listed).toMatchObject({ uses: 1, revenue_cents: 6320, active: true });
  });

  it('refuses a code for another plan, and one used up, with a clear message', async () => {
    const gold = await checkout(await t.loginAs('free'), { tier: 'gold', period: 'monthly', offer: 'SPRING20' });
    expect(gold.answer.statusCode).toBe(400);
    expect(gold.answer.json().detail).toBe('This offer is not for the Gold (monthly) plan.');

    const second = await t.loginAs('free');
    const used = await checkout(second, { tier: 'silver', period: 'yearly', offer: 'SPRING20' });
    expect(used.answer.statusCode).toBe(200);
    await fake.completeCheckout(used.sessionId!);
    // Two uses of two: the code is used up.
    const third = await checkout(await t.loginAs('free'), { tier: 'silver', period: 'monthly', offer: 'SPRING20' });
    expect(third.answer.statusCode).toBe(400);
    expect(third.answer.json().detail).toBe(OFFER_NOT_VALID);
  });

  it('can be ended by an owner: the code stops working, and members who have it keep it', async () => {
    const made = (
      await request('POST', '/api/admin/offers', owner, offer('ENDME15', { percent_off: 15, duration: 'forever' }))
    ).json<OfferView>();
    const member = await t.loginAs('free');
    const bought = await checkout(member, { tier: 'silver', period: 'monthly', offer: 'ENDME15' });
    await fake.completeCheckout(bought.sessionId!);
    const ended = await request('POST', `/api/admin/offers/${made.id}/end`, owner);
    expect(ended.statusCode).toBe(200);
    expect(ended.json<OfferView>()).toMatchObject({ active: false, uses: 1 });
    expect([...fake.state.promotionCodes.values()].find((each) => each.code === 'ENDME15').active).toBe(false);
    expect((await request('GET', '/api/offers/ENDME15')).statusCode).toBe(404);
    expect((await request('GET', '/api/billing/overview', member.headers)).json().offer).toEqual({
      code: 'ENDME15',
      label: '15% off for as long as you stay',
    });
  });
});

describe('free trials', () => {
  it('are set per tier by owners, given at checkout, and once per account, ever', async () => {
    expect((await request('PUT', '/api/admin/trials', editor, { bronze: 0, silver: 14, gold: 7 })).statusCode).toBe(403);
    const set = await request('PUT', '/api/admin/trials', owner, { bronze: 0, silver: 14, gold: 7 });
    expect(set.json()).toEqual({ bronze: 0, silver: 14, gold: 7 });
    expect((await request('PUT', '/api/admin/trials', owner, { bronze: 0, silver: 120, gold: 7 })).statusCode).toBe(400);

    const member = await t.loginAs('free');
    const first = await checkout(member, { tier: 'silver', period: 'monthly' });
    const call = fake.calls.findLast((each) => each.path === '/v1/checkout/sessions' && each.method === 'POST')!;
    expect((call.params.subscription_data as { trial_period_days?: string }).trial_period_days).toBe('14');
    const subscription = await fake.completeCheckout(first.sessionId!);
    expect(subscription.status).toBe('trialing');
    const overview = (await request('GET', '/api/billing/overview', member.headers)).json();
    expect(overview.subscription).toMatchObject({ status: 'trialing', gives_access: true });
    expect(new Date(overview.subscription.trial_ends_at).getTime()).toBeGreaterThan(Date.now() + 13 * 24 * 3_600_000);
    const [account] = await t.db
      .select({ tier: members.membershipTier, trialUsedAt: members.trialUsedAt })
      .from(members)
      .where(eq(members.id, member.memberId));
    expect(account).toMatchObject({ tier: 'silver' });
    expect(account?.trialUsedAt).not.toBeNull();

    // The trial ended without the member staying on: a new checkout has no trial.
    await fake.endTrialWithoutPayment(subscription.id, { behavior: 'cancel' });
    const again = await checkout(member, { tier: 'gold', period: 'monthly' });
    expect(again.answer.statusCode, again.answer.body).toBe(200);
    const secondCall = fake.calls.findLast((each) => each.path === '/v1/checkout/sessions' && each.method === 'POST')!;
    expect((secondCall.params.subscription_data as { trial_period_days?: string }).trial_period_days).toBeUndefined();
    await request('PUT', '/api/admin/trials', owner, { bronze: 0, silver: 0, gold: 0 });
  });
});
