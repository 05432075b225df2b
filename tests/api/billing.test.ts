import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_OFF } from '../../common/billing.contract.ts';
import { auditLog, billingEvents, members, subscriptions } from '../../db/schema.ts';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.ts';
import { startFakeStripe, type FakeStripe } from '../helpers/stripe-server.ts';
import { createTestApp, uniqueEmail, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

const PUBLIC_URL = 'https://learn.realtypocket.test';
const DAY = 24 * 60 * 60;

let fake: FakeStripe;
let smtp: TestSmtpServer;
let t: TestApp;
let staffHeaders: { authorization: string };

const stripeEnv = (stripe: FakeStripe) => ({
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_BASE: stripe.url,
});

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  fake = await startFakeStripe();
  smtp = await startSmtpServer();
  t = await createTestApp({
    env: { ...stripeEnv(fake), PUBLIC_URL, SMTP_URL: smtp.url },
    mailTiming: { pollMs: 200, retryBaseMs: 200 },
  });
  fake.setWebhookTarget(`${await listen(t.app)}/api/billing/webhook`);
  const staff = await t.loginAsStaff();
  staffHeaders = { authorization: `Bearer ${staff.token}` };
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await fake.close();
});

const post = (url: string, headers: object, payload?: object) => t.app.inject({ method: 'POST', url, headers: { ...headers }, payload });
const tierOf = async (memberId: string) =>
  (await t.db.select({ tier: members.membershipTier }).from(members).where(eq(members.id, memberId)))[0]!.tier;
const priceId = (lookupKey: string) => [...fake.state.prices.values()].find((price) => price.lookup_key === lookupKey)!.id;

/** Checkout as the member, then pay on the fake's checkout page; the fake delivers the webhooks. */
async function subscribe(member: MemberLogin, tier = 'silver', period = 'monthly') {
  const checkout = await post('/api/billing/checkout', member.headers, { tier, period });
  expect(checkout.statusCode).toBe(200);
  const sessionId = new URL(checkout.json<{ url: string }>().url).pathname.split('/').pop()!;
  return fake.completeCheckout(sessionId);
}

describe('prices', () => {
  it('creates a product per tier and the six plan prices at start, once, even with several servers starting together', async () => {
    const keys = [...fake.state.prices.values()].map(
      (price) => `${price.lookup_key}:${price.unit_amount}:${price.recurring.interval}:${price.currency}`,
    );
    expect(keys.sort()).toEqual([
      'realtypocket_bronze_monthly:2900:month:usd',
      'realtypocket_bronze_yearly:29000:year:usd',
      'realtypocket_gold_monthly:14900:month:usd',
      'realtypocket_gold_yearly:149000:year:usd',
      'realtypocket_silver_monthly:7900:month:usd',
      'realtypocket_silver_yearly:79000:year:usd',
    ]);
    expect([...fake.state.products.keys()].sort()).toEqual(['realtypocket_bronze', 'realtypocket_gold', 'realtypocket_silver']);

    // A fresh Stripe account, and two servers starting against it at the same moment.
    const empty = await startFakeStripe();
    const first = await createTestApp({ seed: false, env: stripeEnv(empty) });
    try {
      const [second, third] = await Promise.all([first.anotherServer(), first.anotherServer()]);
      expect(second.services.billing.enabled && third.services.billing.enabled).toBe(true);
      expect(empty.state.prices.size).toBe(6);
      expect(new Set([...empty.state.prices.values()].map((price) => price.lookup_key)).size).toBe(6);
      expect(empty.state.products.size).toBe(3);
    } finally {
      await first.close();
      await empty.close();
    }
  });
});

describe('prices already in Stripe', () => {
  it('replaces an archived price, or one whose product was archived, and uses the new one', async () => {
    const stripe = await startFakeStripe();
    const first = await createTestApp({ seed: false, env: stripeEnv(stripe) });
    try {
      const byKey = (key: string) => [...stripe.state.prices.values()].find((price) => price.lookup_key === key);
      const archived = byKey('realtypocket_silver_monthly');
      archived.active = false;
      stripe.state.products.get('realtypocket_gold').active = false;
      const second = await first.anotherServer();
      expect(byKey('realtypocket_silver_monthly').id).not.toBe(archived.id);
      expect(byKey('realtypocket_silver_monthly').active).toBe(true);
      expect(stripe.state.products.get('realtypocket_gold').active).toBe(true);
      const member = await first.loginAs('free');
      const checkout = await second.inject({
        method: 'POST',
        url: '/api/billing/checkout',
        headers: member.headers,
        payload: { tier: 'silver', period: 'monthly' },
      });
      expect(checkout.statusCode).toBe(200);
      const session = stripe.calls.findLast((call) => call.path === '/v1/checkout/sessions' && call.method === 'POST')!;
      expect(session.params.line_items).toEqual([{ price: byKey('realtypocket_silver_monthly').id, quantity: '1' }]);
    } finally {
      await first.close();
      await stripe.close();
    }
  });
});

describe('checkout', () => {
  it('refuses visitors, free and unknown plans', async () => {
    expect((await post('/api/billing/checkout', {}, { tier: 'silver', period: 'monthly' })).statusCode).toBe(401);
    const member = await t.loginAs('free');
    const free = await post('/api/billing/checkout', member.headers, { tier: 'free', period: 'monthly' });
    expect(free.statusCode).toBe(400);
    expect(free.json().detail).toContain('Choose a paid plan: bronze, silver or gold');
    const weekly = await post('/api/billing/checkout', member.headers, { tier: 'gold', period: 'weekly' });
    expect(weekly.statusCode).toBe(400);
    expect(weekly.json().detail).toContain('Choose monthly or yearly billing');
  });

  it('opens a Stripe Checkout for the plan with the member as customer, created once', async () => {
    const member = await t.loginAs('free', { name: 'Casey Checkout' });
    const first = await post('/api/billing/checkout', member.headers, { tier: 'bronze', period: 'yearly' });
    expect(first.statusCode).toBe(200);
    expect(first.json().url).toMatch(new RegExp(`^${fake.url}/checkout/cs_test_`));

    const created = fake.calls.filter((call) => call.method === 'POST' && call.path === '/v1/customers');
    const mine = created.filter((call) => (call.params.metadata as Record<string, string>)?.member_id === member.memberId);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.params).toMatchObject({ email: member.email, name: 'Casey Checkout' });
    const customerId = (await t.db.select().from(members).where(eq(members.id, member.memberId)))[0]!.stripeCustomerId;
    expect(customerId).toMatch(/^cus_/);

    const session = fake.calls.findLast((call) => call.path === '/v1/checkout/sessions' && call.method === 'POST')!.params;
    expect(session).toMatchObject({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: member.memberId,
      subscription_data: { metadata: { member_id: member.memberId } },
      success_url: `${PUBLIC_URL}/dashboard?checkout=success`,
      cancel_url: `${PUBLIC_URL}/pricing`,
      line_items: [{ price: priceId('realtypocket_bronze_yearly'), quantity: '1' }],
    });

    // Leaving checkout and coming back uses the same customer.
    expect((await post('/api/billing/checkout', member.headers, { tier: 'gold', period: 'monthly' })).statusCode).toBe(200);
    expect(
      fake.calls.filter(
        (call) => call.path === '/v1/customers' && (call.params.metadata as Record<string, string>)?.member_id === member.memberId,
      ),
    ).toHaveLength(1);
  });

  it('closes an earlier unpaid checkout when the member opens another, so two tabs cannot start two subscriptions', async () => {
    const member = await t.loginAs('free');
    const first = await post('/api/billing/checkout', member.headers, { tier: 'silver', period: 'monthly' });
    const second = await post('/api/billing/checkout', member.headers, { tier: 'gold', period: 'monthly' });
    const idOf = (response: typeof first) => new URL(response.json<{ url: string }>().url).pathname.split('/').pop()!;
    expect(fake.state.checkoutSessions.get(idOf(first)).status).toBe('expired');
    expect(fake.state.checkoutSessions.get(idOf(second)).status).toBe('open');
  });

  it('reads the subscription from Stripe when the member is back before its events', async () => {
    const member = await t.loginAs('free');
    const checkout = await post('/api/billing/checkout', member.headers, { tier: 'gold', period: 'yearly' });
    await fake.completeCheckout(new URL(checkout.json<{ url: string }>().url).pathname.split('/').pop()!, { sendWebhooks: false });
    expect(await tierOf(member.memberId)).toBe('free');
    const resolved = (await t.app.sessions.resolve(member.token))!;
    await t.app.services.billing.refresh({
      member: { ...resolved.member!, sessionId: resolved.sessionId },
      staff: null,
      client: { address: '127.0.0.1', userAgent: undefined },
    });
    expect(await tierOf(member.memberId)).toBe('gold');
  });

  it('makes the member Silver once paid, mails a receipt, and refuses buying the same plan twice', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'silver', 'monthly');
    expect(await tierOf(member.memberId)).toBe('silver');

    const view = await t.app.inject({ url: '/api/billing/subscription', headers: member.headers });
    expect(view.json()).toMatchObject({
      id: subscription.id,
      tier: 'silver',
      period: 'monthly',
      status: 'active',
      amount_cents: 7900,
      cancel_at_period_end: false,
      gives_access: true,
      current_period_end: new Date(subscription.items.data[0].current_period_end * 1000).toISOString(),
    });
    const [receipt] = await smtp.waitFor(member.email);
    expect(receipt!.subject).toBe('Your receipt: $79.00 for RealtyPocket Silver (monthly)');
    expect(receipt!.text).toContain('We received $79.00 for your RealtyPocket Silver (monthly) membership');

    const again = await post('/api/billing/checkout', member.headers, { tier: 'silver', period: 'monthly' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('You already have this plan.');
    const other = await post('/api/billing/checkout', member.headers, { tier: 'gold', period: 'monthly' });
    expect(other.statusCode).toBe(409);

    const invoices = (await t.app.inject({ url: '/api/billing/invoices', headers: member.headers })).json();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'paid', amount_cents: 7900, currency: 'usd' });
    expect(invoices[0].url).toMatch(new RegExp(`^${fake.url}/invoices/in_`));
    const portal = await post('/api/billing/portal', member.headers);
    expect(portal.json().url).toMatch(new RegExp(`^${fake.url}/portal/cus_`));

    const activity = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, member.email), eq(auditLog.action, 'billing.tier')));
    expect(activity.map((entry) => [entry.actorEmail, entry.oldValue, entry.newValue])).toEqual([['Stripe', 'free', 'silver']]);
  });
});

describe('webhooks', () => {
  it('refuses a missing or wrong signature with 400 and changes nothing', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'gold');
    fake.updateSubscriptionState(subscription.id, { status: 'canceled' });
    const { payload, event } = fake.signedEvent('customer.subscription.deleted', fake.state.subscriptions.get(subscription.id));
    const forged = fake.signedEvent('customer.subscription.deleted', {}).signature.replace(/v1=\w+/, `v1=${'0'.repeat(64)}`);
    for (const headers of [{}, { 'stripe-signature': forged }, { 'stripe-signature': 'nonsense' }]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/billing/webhook',
        headers: { 'content-type': 'application/json', ...headers },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/Stripe-Signature|signature/);
    }
    expect(await tierOf(member.memberId)).toBe('gold');
    expect(await t.db.select().from(billingEvents).where(eq(billingEvents.id, event.id))).toEqual([]);
  });

  it('keeps the tier while past due and asks for a new card, then returns the member to free when unpaid', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'bronze');
    await smtp.waitFor(member.email); // the receipt
    fake.updateSubscriptionState(subscription.id, { status: 'past_due' });
    const invoice = { ...fake.state.invoices.get(subscription.latest_invoice), status: 'open', amount_paid: 0, amount_due: 2900 };
    expect((await fake.sendEvent('invoice.payment_failed', invoice)).status).toBe(200);
    expect(await tierOf(member.memberId)).toBe('bronze');
    expect((await t.app.inject({ url: '/api/billing/subscription', headers: member.headers })).json()).toMatchObject({
      status: 'past_due',
      gives_access: true,
    });
    const failed = (await smtp.waitFor(member.email, 2)).find((mail) => mail.subject === 'Your payment did not go through');
    expect(failed!.text).toContain(`${PUBLIC_URL}/account/billing`);

    fake.updateSubscriptionState(subscription.id, { status: 'unpaid' });
    await fake.sendEvent('customer.subscription.updated', fake.state.subscriptions.get(subscription.id));
    expect(await tierOf(member.memberId)).toBe('free');
  });

  it('reads invoices written in older API versions (no parent), and asks Stripe when an invoice names nothing', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'silver');
    await smtp.waitFor(member.email);
    const { parent: _parent, ...legacy } = { ...fake.state.invoices.get(subscription.latest_invoice), status: 'open', amount_paid: 0 };
    expect((await fake.sendEvent('invoice.payment_failed', legacy)).status).toBe(200);
    const { subscription: _subscription, ...bare } = legacy;
    expect((await fake.sendEvent('invoice.payment_failed', bare)).status).toBe(200);
    const failed = (await smtp.waitFor(member.email, 3)).filter((mail) => mail.subject === 'Your payment did not go through');
    expect(failed).toHaveLength(2);
  });

  it('follows a cancellation made in the customer portal (a cancel date), resumes it, and logs what Stripe changed', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'bronze');
    const end = subscription.items.data[0].current_period_end;
    fake.updateSubscriptionState(subscription.id, { cancel_at: end, canceled_at: Math.floor(Date.now() / 1000) });
    await fake.sendEvent('customer.subscription.updated', fake.state.subscriptions.get(subscription.id));
    expect((await t.app.inject({ url: '/api/billing/subscription', headers: member.headers })).json()).toMatchObject({
      cancel_at_period_end: true,
      current_period_end: new Date(end * 1000).toISOString(),
    });
    const subjects = (await smtp.waitFor(member.email, 2)).map((mail) => mail.subject ?? '');
    expect(subjects.some((subject) => subject.startsWith('Your RealtyPocket membership ends on'))).toBe(true);
    expect((await post('/api/billing/subscription/resume', member.headers)).json()).toMatchObject({ cancel_at_period_end: false });
    expect(fake.state.subscriptions.get(subscription.id).cancel_at).toBeNull();
    const logged = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, member.email), eq(auditLog.action, 'billing.subscription')));
    expect(logged.map((entry) => entry.newValue)).toEqual(['Bronze (monthly), active', 'Bronze (monthly), active, ending']);
  });

  it("ends up in Stripe's state when different events about one subscription arrive at two servers at once", async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'bronze');
    const other = await t.anotherServer();
    const urls = [`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, await listen(other)];
    fake.updateSubscriptionState(subscription.id, { price: priceId('realtypocket_gold_monthly') });
    const upgraded = fake.signedEvent('customer.subscription.updated', fake.state.subscriptions.get(subscription.id));
    fake.updateSubscriptionState(subscription.id, { cancel_at_period_end: true });
    const ending = fake.signedEvent('customer.subscription.updated', fake.state.subscriptions.get(subscription.id));
    const deliver = async (base: string, event: { payload: string; signature: string }) => {
      // As Stripe does: a 503 is delivered again later.
      for (let attempt = 0; attempt < 20; attempt++) {
        const response = await fetch(`${base}/api/billing/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
          body: event.payload,
        });
        if (response.status === 200) return;
        expect(response.status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('never delivered');
    };
    await Promise.all([deliver(urls[0]!, upgraded), deliver(urls[1]!, ending)]);
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect({ tier: row!.tier, ending: row!.cancelAtPeriodEnd }).toEqual({ tier: 'gold', ending: true });
    expect(await tierOf(member.memberId)).toBe('gold');
  });

  it('follows a plan change, and returns the member to free when the subscription is deleted or expires', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'bronze');
    fake.updateSubscriptionState(subscription.id, { price: priceId('realtypocket_gold_yearly') });
    await fake.sendEvent('customer.subscription.updated', fake.state.subscriptions.get(subscription.id));
    expect(await tierOf(member.memberId)).toBe('gold');

    fake.updateSubscriptionState(subscription.id, { status: 'canceled' });
    await fake.sendEvent('customer.subscription.deleted', fake.state.subscriptions.get(subscription.id));
    expect(await tierOf(member.memberId)).toBe('free');
    expect((await t.app.inject({ url: '/api/billing/subscription', headers: member.headers })).json()).toBeNull();

    const other = await t.loginAs('free');
    const expiring = await subscribe(other, 'silver');
    fake.updateSubscriptionState(expiring.id, { status: 'incomplete_expired' });
    await fake.sendEvent('customer.subscription.updated', fake.state.subscriptions.get(expiring.id));
    expect(await tierOf(other.memberId)).toBe('free');
  });

  it('keeps the tier until the period ends when canceled at period end, then renews no more', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'silver', 'yearly');
    fake.updateSubscriptionState(subscription.id, { cancel_at_period_end: true });
    await fake.sendEvent('customer.subscription.updated', fake.state.subscriptions.get(subscription.id));
    expect(await tierOf(member.memberId)).toBe('silver');
    const subjects = (await smtp.waitFor(member.email, 2)).map((mail) => mail.subject ?? '');
    expect(subjects.filter((subject) => /^Your RealtyPocket membership ends on /.test(subject))).toHaveLength(1);

    await fake.renewSubscription(subscription.id); // the period ends: Stripe deletes it
    expect(await tierOf(member.memberId)).toBe('free');
  });

  it('handles a replayed event once, and an older event never overwrites newer state', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'gold');
    const created = fake.events.find(
      (entry) => entry.type === 'customer.subscription.created' && entry.event.data.object.id === subscription.id,
    )!;

    // The subscription is canceled; then Stripe retries the old 'created' event, and sends an old 'updated' late.
    fake.updateSubscriptionState(subscription.id, { status: 'canceled' });
    await fake.sendEvent('customer.subscription.deleted', fake.state.subscriptions.get(subscription.id));
    const replay = await fake.sendEvent('customer.subscription.created', created.event.data.object, { id: created.event.id });
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    const late = await fake.sendEvent('customer.subscription.updated', created.event.data.object, { created: created.event.created - 60 });
    expect(await late.json()).toEqual({ received: true, duplicate: false });
    expect(await tierOf(member.memberId)).toBe('free');
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect(row!.status).toBe('canceled');

    // One receipt only, however often invoice.paid arrives.
    const paid = fake.events.find((entry) => entry.type === 'invoice.paid' && entry.event.data.object.subscription === subscription.id)!;
    await fake.sendEvent('invoice.paid', paid.event.data.object, { id: paid.event.id });
    await new Promise((resolve) => setTimeout(resolve, 600)); // the mail worker's poll
    expect(smtp.to(member.email).filter((mail) => mail.subject?.startsWith('Your receipt'))).toHaveLength(1);
  });

  it('changes nothing twice when two servers receive the same event at once', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'bronze');
    const other = await t.anotherServer();
    const otherUrl = await listen(other);
    fake.updateSubscriptionState(subscription.id, { price: priceId('realtypocket_silver_monthly') });
    const { payload, signature } = fake.signedEvent('customer.subscription.updated', fake.state.subscriptions.get(subscription.id));
    const deliver = (base: string) =>
      fetch(`${base}/api/billing/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const answers = await Promise.all([deliver(base), deliver(otherUrl), deliver(base)]);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(bodies.filter((body) => body.duplicate === false)).toHaveLength(1);
    expect(await tierOf(member.memberId)).toBe('silver');
    const changes = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, member.email), eq(auditLog.action, 'billing.tier')));
    expect(changes.map((entry) => entry.newValue)).toEqual(['bronze', 'silver']);
  });
});

describe('the member changes their plan', () => {
  it('changes plan with proration, cancels at period end and resumes', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'bronze', 'monthly');
    const changed = await post('/api/billing/subscription/plan', member.headers, { tier: 'gold', period: 'yearly' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ tier: 'gold', period: 'yearly', status: 'active' });
    const update = fake.calls.findLast((call) => call.method === 'POST' && call.path === `/v1/subscriptions/${subscription.id}`)!;
    expect(update.params).toMatchObject({
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
      items: [{ id: subscription.items.data[0].id, price: priceId('realtypocket_gold_yearly') }],
    });
    expect(await tierOf(member.memberId)).toBe('gold');
    expect((await post('/api/billing/subscription/plan', member.headers, { tier: 'gold', period: 'yearly' })).statusCode).toBe(409);

    const canceled = await post('/api/billing/subscription/cancel', member.headers);
    expect(canceled.json()).toMatchObject({ cancel_at_period_end: true, gives_access: true });
    expect(fake.state.subscriptions.get(subscription.id).cancel_at_period_end).toBe(true);
    expect(await tierOf(member.memberId)).toBe('gold');
    // The event Stripe sends about it changes nothing more, and the member is told once.
    await fake.sendEvent('customer.subscription.updated', fake.state.subscriptions.get(subscription.id));
    const resumed = await post('/api/billing/subscription/resume', member.headers);
    expect(resumed.json()).toMatchObject({ cancel_at_period_end: false });
    expect(fake.state.subscriptions.get(subscription.id).cancel_at_period_end).toBe(false);
    const ending = (await smtp.waitFor(member.email, 2)).filter((mail) => mail.subject?.includes('membership ends on'));
    expect(ending).toHaveLength(1);

    const actions = await t.db.select().from(auditLog).where(eq(auditLog.actorEmail, member.email));
    expect(actions.map((entry) => entry.action).sort()).toEqual([
      'billing.cancel',
      'billing.plan_change',
      'billing.resume',
      'billing.tier',
    ]);

    expect((await post('/api/billing/subscription/cancel', (await t.loginAs('free')).headers)).statusCode).toBe(409);
  });
});

describe('staff', () => {
  it('refunds and cancels a first-time subscriber within 30 days, once', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'silver', 'monthly');
    const refund = await post(`/api/admin/members/${member.memberId}/refund`, staffHeaders);
    expect(refund.statusCode).toBe(200);
    expect(refund.json()).toMatchObject({ refunded_cents: 7900, subscription: { status: 'canceled', gives_access: false } });
    const refunds = [...fake.state.refunds.values()].filter((entry) => entry.metadata.subscription === subscription.id);
    expect(refunds.map((entry) => entry.amount)).toEqual([7900]);
    expect(fake.state.subscriptions.get(subscription.id).status).toBe('canceled');
    expect(await tierOf(member.memberId)).toBe('free');
    const again = await post(`/api/admin/members/${member.memberId}/refund`, staffHeaders);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/^This subscription was already refunded on /);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, member.email), eq(auditLog.action, 'billing.refund')));
    expect(entry!.newValue).toBe('refunded 79.00 USD and canceled');
  });

  it('refuses a refund after 30 days, and for a member who subscribed before', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'gold');
    fake.updateSubscriptionState(subscription.id, { start_date: Math.floor(Date.now() / 1000) - 31 * DAY });
    await fake.sendEvent('customer.subscription.updated', fake.state.subscriptions.get(subscription.id));
    const late = await post(`/api/admin/members/${member.memberId}/refund`, staffHeaders);
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toMatch(
      /^The money-back guarantee covers the first 30 days: this subscription started on \d{4}-\d\d-\d\d, 31 days ago\.$/,
    );
    expect([...fake.state.refunds.values()].filter((entry) => entry.metadata.subscription === subscription.id)).toEqual([]);

    const returning = await t.loginAs('free');
    const old = await subscribe(returning, 'bronze');
    fake.updateSubscriptionState(old.id, { status: 'canceled' });
    await fake.sendEvent('customer.subscription.deleted', fake.state.subscriptions.get(old.id));
    await subscribe(returning, 'bronze');
    const second = await post(`/api/admin/members/${returning.memberId}/refund`, staffHeaders);
    expect(second.statusCode).toBe(409);
    expect(second.json().detail).toContain('first-time subscribers');
    expect((await post(`/api/admin/members/${(await t.loginAs('free')).memberId}/refund`, staffHeaders)).statusCode).toBe(409);
    expect((await post(`/api/admin/members/${member.memberId}/refund`, member.headers)).statusCode).toBe(403);
  });

  it('gives a complimentary tier that payment events do not take away, and shows billing in the members list', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'silver');
    const gold = await post(`/api/admin/members/${member.memberId}/tier`, staffHeaders, { membership_tier: 'gold' });
    expect(gold.json()).toMatchObject({ membership_tier: 'gold' });
    fake.updateSubscriptionState(subscription.id, { status: 'canceled' });
    await fake.sendEvent('customer.subscription.deleted', fake.state.subscriptions.get(subscription.id));
    expect(await tierOf(member.memberId)).toBe('gold');

    const payer = await t.loginAs('free');
    await subscribe(payer, 'silver', 'yearly');
    const free = await post(`/api/admin/members/${payer.memberId}/tier`, staffHeaders, { membership_tier: 'free' });
    expect(free.json()).toMatchObject({ membership_tier: 'silver' });
    const [listed] = (await t.app.inject({ url: `/api/admin/members?search=${payer.email}`, headers: staffHeaders })).json();
    expect(listed).toMatchObject({
      membership_tier: 'silver',
      complimentary_tier: null,
      subscription: { tier: 'silver', period: 'yearly', status: 'active', cancel_at_period_end: false },
    });
  });

  it('changes a tier while a payment event for the same member arrives, without either failing', async () => {
    const member = await t.loginAs('free');
    const checkout = await post('/api/billing/checkout', member.headers, { tier: 'silver', period: 'monthly' });
    const paid = await fake.completeCheckout(new URL(checkout.json<{ url: string }>().url).pathname.split('/').pop()!, {
      sendWebhooks: false,
    });
    const [staffChange, event] = await Promise.all([
      post(`/api/admin/members/${member.memberId}/tier`, staffHeaders, { membership_tier: 'bronze' }),
      fake.sendEvent('customer.subscription.created', paid),
    ]);
    expect([staffChange.statusCode, event.status]).toEqual([200, 200]);
    expect(await tierOf(member.memberId)).toBe('silver');
  });

  it('sums active subscriptions by plan into monthly recurring revenue', async () => {
    const revenue = (await t.app.inject({ url: '/api/admin/billing/revenue', headers: staffHeaders })).json();
    const rows = await t.db.select().from(subscriptions);
    const paying = rows.filter((row) => row.status === 'active' || row.status === 'past_due');
    const expected = paying.reduce((sum, row) => sum + (row.period === 'yearly' ? row.amountCents / 12 : row.amountCents), 0);
    expect(revenue.active_count).toBe(paying.length);
    expect(revenue.active_count).toBeGreaterThan(2);
    expect(revenue.monthly_recurring_cents).toBe(Math.round(expected));
    const silverYearly = revenue.active_by_plan.find(
      (plan: { tier: string; period: string }) => plan.tier === 'silver' && plan.period === 'yearly',
    );
    expect(silverYearly.count).toBeGreaterThanOrEqual(1);
    expect((await t.app.inject({ url: '/api/admin/billing/revenue', headers: (await t.loginAs('gold')).headers })).statusCode).toBe(403);
  });
});

describe("the member's account", () => {
  it('gives Stripe the new email address when the member changes theirs', async () => {
    const member = await t.loginAs('free');
    await subscribe(member, 'bronze');
    const customerId = (await t.db.select().from(members).where(eq(members.id, member.memberId)))[0]!.stripeCustomerId!;
    const newAddress = uniqueEmail('moved');
    expect((await post('/api/account/email', member.headers, { email: newAddress, password: member.password })).statusCode).toBe(200);
    const [mail] = await smtp.waitFor(newAddress);
    const token = new URL(linkIn(mail!, `${PUBLIC_URL}/confirm-email?token=`)).searchParams.get('token')!;
    expect((await post('/api/account/email/confirm', {}, { token })).statusCode).toBe(200);
    expect(fake.state.customers.get(customerId).email).toBe(newAddress);
  });

  it('ends a subscription whose events have not arrived yet, and one paid for after the account is gone', async () => {
    const member = await t.loginAs('free');
    const checkout = await post('/api/billing/checkout', member.headers, { tier: 'gold', period: 'monthly' });
    const sessionId = new URL(checkout.json<{ url: string }>().url).pathname.split('/').pop()!;
    const paid = await fake.completeCheckout(sessionId, { sendWebhooks: false });
    const late = await t.loginAs('free');
    const pending = new URL(
      (await post('/api/billing/checkout', late.headers, { tier: 'bronze', period: 'monthly' })).json<{ url: string }>().url,
    ).pathname
      .split('/')
      .pop()!;

    expect((await post('/api/account/delete', member.headers, { password: member.password })).statusCode).toBe(200);
    expect(fake.state.subscriptions.get(paid.id).status).toBe('canceled');
    expect((await fake.sendEvent('customer.subscription.created', fake.state.subscriptions.get(paid.id))).status).toBe(200);

    // The second member leaves with their checkout page still open: it closes; had it been paid, the event ends it.
    expect((await post('/api/account/delete', late.headers, { password: late.password })).statusCode).toBe(200);
    expect(fake.state.checkoutSessions.get(pending).status).toBe('expired');
  });

  it('ends their subscription in Stripe before deleting it, so they are never charged again', async () => {
    const member = await t.loginAs('free');
    const subscription = await subscribe(member, 'bronze');
    const deleted = await post('/api/account/delete', member.headers, { password: member.password });
    expect(deleted.statusCode).toBe(200);
    expect(fake.state.subscriptions.get(subscription.id).status).toBe('canceled');
  });
});

describe('billing off', () => {
  it('says so instead of taking a payment', async () => {
    const off = await createTestApp({ seed: false });
    try {
      const member = await off.loginAs('free');
      const checkout = await off.app.inject({
        method: 'POST',
        url: '/api/billing/checkout',
        headers: member.headers,
        payload: { tier: 'silver', period: 'monthly' },
      });
      expect(checkout.statusCode).toBe(503);
      expect(checkout.json().detail).toBe(BILLING_OFF);
      expect((await off.app.inject({ url: '/api/billing/subscription', headers: member.headers })).json()).toBeNull();
      expect((await off.app.inject({ method: 'POST', url: '/api/billing/webhook', payload: {} })).statusCode).toBe(503);
    } finally {
      await off.close();
    }
  });
});
