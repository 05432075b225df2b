/**
 * Hand-run check of the fake Stripe against the real SDK:
 *   ./node_modules/.bin/node tests/helpers/stripe-server.selftest.ts
 * Not a vitest file on purpose: it checks the test helper itself, not the site.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { pdfText } from './pdf-text.ts';
import { startFakeStripe } from './stripe-server.ts';

const fake = await startFakeStripe();
const { hostname, port } = new URL(fake.url);
const stripe = new Stripe(fake.secretKey, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
const ok = (what: string) => console.log(`ok - ${what}`);

// A webhook receiver that verifies every event as the site must: raw body + signature.
const received: string[] = [];
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      const event = stripe.webhooks.constructEvent(Buffer.concat(chunks), request.headers['stripe-signature'] ?? '', fake.webhookSecret);
      received.push(event.type);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    } catch (error) {
      response.writeHead(400).end(String(error));
    }
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
fake.setWebhookTarget(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/billing/webhook`);

try {
  // Catalogue: products and prices by lookup key.
  const product = await stripe.products.create({ name: 'RealtyPocket Pro', metadata: { tier: 'pro' } });
  assert.match(product.id, /^prod_/);
  assert.deepEqual(await stripe.products.retrieve(product.id).then((p) => p.metadata), { tier: 'pro' });
  const monthly = await stripe.prices.create({
    product: product.id,
    unit_amount: 1500,
    currency: 'usd',
    recurring: { interval: 'month' },
    lookup_key: 'pro_monthly',
    metadata: { tier: 'pro' },
  });
  const yearly = await stripe.prices.create({
    product: product.id,
    unit_amount: 15000,
    currency: 'usd',
    recurring: { interval: 'year' },
    lookup_key: 'pro_yearly',
  });
  assert.equal(monthly.type, 'recurring');
  assert.deepEqual({ interval: monthly.recurring?.interval, count: monthly.recurring?.interval_count }, { interval: 'month', count: 1 });
  ok('create product and prices');

  const listed = await stripe.prices.list({
    lookup_keys: ['pro_monthly', 'pro_yearly', 'nope'],
    active: true,
    expand: ['data.product'],
    limit: 10,
  });
  assert.equal(listed.object, 'list');
  assert.equal(listed.has_more, false);
  assert.deepEqual(listed.data.map((price) => price.lookup_key).sort(), ['pro_monthly', 'pro_yearly']);
  const expandedProduct = listed.data[0]!.product;
  assert.ok(typeof expandedProduct === 'object' && 'name' in expandedProduct && expandedProduct.name === 'RealtyPocket Pro');
  assert.equal(fake.state.prices.get(monthly.id).product, product.id, 'expansion must not change the stored price');
  const lastCall = fake.calls.at(-1)!;
  assert.deepEqual(
    { method: lastCall.method, path: lastCall.path, keys: lastCall.params.lookup_keys },
    { method: 'GET', path: '/v1/prices', keys: ['pro_monthly', 'pro_yearly', 'nope'] },
  );
  ok('list prices by lookup_keys with expand[]=data.product');

  await assert.rejects(
    stripe.prices.create({
      product: product.id,
      unit_amount: 1600,
      currency: 'usd',
      recurring: { interval: 'month' },
      lookup_key: 'pro_monthly',
    }),
    (error: unknown) => {
      assert.ok(error instanceof Stripe.errors.StripeInvalidRequestError);
      assert.equal(error.statusCode, 400);
      assert.equal(error.code, 'lookup_key_exists');
      assert.equal(error.param, 'lookup_key');
      return true;
    },
  );
  ok('duplicate lookup key refused with lookup_key_exists');

  const priceParams = {
    product: product.id,
    unit_amount: 900,
    currency: 'usd',
    recurring: { interval: 'month' as const },
    lookup_key: 'basic',
  };
  const first = await stripe.prices.create(priceParams, { idempotencyKey: 'price:basic:v1' });
  const second = await stripe.prices.create(priceParams, { idempotencyKey: 'price:basic:v1' });
  assert.equal(second.id, first.id);
  assert.equal([...fake.state.prices.values()].filter((price) => price.lookup_key === 'basic').length, 1);
  await assert.rejects(stripe.prices.create({ ...priceParams, unit_amount: 901 }, { idempotencyKey: 'price:basic:v1' }), {
    type: 'StripeIdempotencyError',
  });
  ok('same Idempotency-Key returns the same price; different params with it are refused');

  const moved = await stripe.prices.create({ ...priceParams, unit_amount: 950, transfer_lookup_key: true });
  assert.equal(moved.lookup_key, 'basic');
  assert.equal(fake.state.prices.get(first.id).lookup_key, null);
  ok('transfer_lookup_key moves the key');

  // Customers and checkout.
  const customer = await stripe.customers.create({ email: 'ann@example.com', name: 'Ann Agent', metadata: { member_id: 'm_1' } });
  const found = await stripe.customers.list({ email: 'ann@example.com' });
  assert.deepEqual(
    found.data.map((c) => c.id),
    [customer.id],
  );
  assert.equal((await stripe.customers.retrieve(customer.id)).id, customer.id);
  ok('create, retrieve and list customers by email');

  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    client_reference_id: 'm_1',
    line_items: [{ price: monthly.id, quantity: 1 }],
    success_url: 'http://site.test/account/billing?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://site.test/pricing',
    subscription_data: { metadata: { member_id: 'm_1', tier: 'pro' } },
    metadata: { member_id: 'm_1' },
    allow_promotion_codes: true,
  });
  assert.match(session.id, /^cs_test_/);
  assert.equal(session.url, `${fake.url}/checkout/${session.id}`);
  assert.deepEqual([session.status, session.payment_status, session.amount_total], ['open', 'unpaid', 1500]);
  const withItems = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] });
  assert.equal(withItems.line_items?.data[0]?.price?.id, monthly.id);
  ok('create checkout session (url on the fake) and retrieve it with line_items');

  const subscription = await fake.completeCheckout(session.id);
  assert.deepEqual(received, ['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
  assert.deepEqual(
    fake.events.map((e) => e.status),
    [200, 200, 200],
  );
  assert.equal(subscription.status, 'active');
  assert.deepEqual(subscription.metadata, { member_id: 'm_1', tier: 'pro' });
  const item = subscription.items.data[0];
  assert.equal(item.price.id, monthly.id);
  const periodDays = (item.current_period_end - item.current_period_start) / 86_400;
  assert.ok(periodDays >= 28 && periodDays <= 31, `a month, not ${periodDays} days`);
  assert.equal(subscription.current_period_end, item.current_period_end);
  const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
  assert.deepEqual([completed.status, completed.payment_status, completed.customer], ['complete', 'paid', customer.id]);
  assert.ok(typeof completed.subscription === 'object' && completed.subscription?.id === subscription.id);
  ok('completeCheckout: subscription, session complete, three verified webhooks in order');

  // Subscription changes.
  const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
  assert.equal(canceling.cancel_at_period_end, true);
  assert.equal(canceling.cancel_at, item.current_period_end);
  const resumed = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
  assert.deepEqual([resumed.cancel_at_period_end, resumed.canceled_at], [false, null]);
  const switched = await stripe.subscriptions.update(subscription.id, {
    items: [{ id: item.id, price: yearly.id }],
    proration_behavior: 'create_prorations',
  });
  assert.equal(switched.items.data[0]!.price.id, yearly.id);
  const yearDays = (switched.items.data[0]!.current_period_end - switched.items.data[0]!.current_period_start) / 86_400;
  assert.ok(yearDays >= 365 && yearDays <= 366, `a year, not ${yearDays} days`);
  const all = await stripe.subscriptions.list({ customer: customer.id, status: 'all', expand: ['data.latest_invoice'] });
  assert.equal(all.data.length, 1);
  assert.ok(typeof all.data[0]!.latest_invoice === 'object');
  ok('update cancel_at_period_end, change plan, list subscriptions');

  // Invoices and refunds.
  const invoices = await stripe.invoices.list({ customer: customer.id, limit: 5 });
  assert.equal(invoices.data.length, 1);
  const invoice = invoices.data[0]!;
  const raw = fake.state.invoices.get(invoice.id);
  assert.deepEqual(
    [invoice.status, invoice.amount_paid, invoice.parent?.subscription_details?.subscription],
    ['paid', 1500, subscription.id],
  );
  assert.ok(raw.payment_intent.startsWith('pi_') && raw.charge.startsWith('ch_') && raw.subscription === subscription.id);
  assert.equal((await stripe.invoices.list({ subscription: subscription.id })).data[0]?.id, invoice.id);
  assert.equal((await stripe.invoices.retrieve(invoice.id)).number, invoice.number);
  const pdf = await fetch(invoice.invoice_pdf!);
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  assert.match(pdfText(Buffer.from(await pdf.arrayBuffer())), new RegExp(`Invoice ${invoice.number}`));
  ok('list/retrieve invoices; payment_intent, charge and PDF present');

  const partial = await stripe.refunds.create({ payment_intent: raw.payment_intent, amount: 500, reason: 'requested_by_customer' });
  assert.deepEqual([partial.status, partial.amount, partial.charge], ['succeeded', 500, raw.charge]);
  const rest = await stripe.refunds.create({ charge: raw.charge });
  assert.equal(rest.amount, 1000);
  await assert.rejects(stripe.refunds.create({ charge: raw.charge }), { code: 'charge_already_refunded' });
  assert.equal(fake.state.charges.get(raw.charge).refunded, true);
  ok('refunds: partial, rest, then refused');

  const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://site.test/account' });
  assert.equal(portal.url, `${fake.url}/portal/${customer.id}`);
  const portalPage = await (await fetch(portal.url)).text();
  assert.match(portalPage, /Customer portal/);
  assert.match(portalPage, /href="http:\/\/site\.test\/account"/);
  ok('billing portal session and page');

  // The browser flow: checkout page, its form, the redirect.
  const browserSession = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: yearly.id, quantity: 1 }],
    success_url: 'http://site.test/account/billing?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://site.test/pricing',
  });
  const page = await (await fetch(browserSession.url!)).text();
  assert.match(page, /RealtyPocket Pro/);
  assert.match(page, /\$150\.00 per year/);
  assert.match(page, />Pay and subscribe</);
  assert.match(page, /<a href="http:\/\/site\.test\/pricing">Cancel<\/a>/);
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  assert.ok(action);
  received.length = 0;
  const paid = await fetch(new URL(action, fake.url), { method: 'POST', redirect: 'manual' });
  assert.equal(paid.status, 303);
  assert.equal(paid.headers.get('location'), `http://site.test/account/billing?session=${browserSession.id}`);
  assert.deepEqual(received, ['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
  const again = await fetch(new URL(action, fake.url), { method: 'POST', redirect: 'manual' });
  assert.equal(again.status, 303, 'a second click goes on to the success page');
  ok('checkout page, Pay and subscribe form, 303 to success_url');

  // Period end helpers, state changes, cancel now.
  received.length = 0;
  const renewed = await fake.renewSubscription(subscription.id);
  assert.equal(renewed.current_period_start, switched.items.data[0]!.current_period_end);
  assert.deepEqual(received, ['invoice.paid', 'customer.subscription.updated']);
  const pastDue = fake.updateSubscriptionState(subscription.id, { status: 'past_due', price: monthly.id });
  assert.deepEqual([pastDue.status, pastDue.items.data[0].price.id], ['past_due', monthly.id]);
  const canceled = await stripe.subscriptions.cancel(subscription.id);
  assert.equal(canceled.status, 'canceled');
  assert.ok(canceled.canceled_at && canceled.ended_at);
  assert.equal((await stripe.subscriptions.list({ customer: customer.id })).data.length, 1, 'canceled ones are left out by default');
  ok('renewSubscription, updateSubscriptionState, cancel now');

  // Signatures and errors.
  const signed = fake.signedEvent('customer.subscription.deleted', canceled, { id: 'evt_fixed', created: 1_700_000_000 });
  const event = stripe.webhooks.constructEvent(signed.payload, signed.signature, fake.webhookSecret);
  assert.deepEqual(
    [event.id, event.type, event.created, event.api_version],
    ['evt_fixed', 'customer.subscription.deleted', 1_700_000_000, Stripe.API_VERSION],
  );
  assert.throws(() => stripe.webhooks.constructEvent(signed.payload.replace('canceled', 'active'), signed.signature, fake.webhookSecret));
  const direct = await fake.sendEvent('invoice.payment_failed', invoice);
  assert.equal(direct.status, 200);
  await assert.rejects(stripe.subscriptions.retrieve('sub_missing'), { statusCode: 404, code: 'resource_missing' });
  const stranger = new Stripe('sk_test_wrong', { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
  await assert.rejects(stranger.customers.list(), { type: 'StripeAuthenticationError' });
  await assert.rejects(stripe.coupons.list(), { statusCode: 404 });
  ok('signedEvent/sendEvent verify; 404, 401 and unknown endpoints answer Stripe errors');

  assert.ok(fake.calls.length > 30);
  assert.ok(fake.calls.every((call) => call.path.startsWith('/v1/')));
} finally {
  await fake.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
}
console.log('all checks passed');
