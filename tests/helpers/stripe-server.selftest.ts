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
const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** Stripe's 400 invalid_request_error naming `param` (and `code`, and a message matching `message`, when given). */
const refusal = (param: string, code?: string, message?: RegExp) => (error: unknown) => {
  assert.ok(error instanceof Stripe.errors.StripeInvalidRequestError, String(error));
  assert.equal(error.statusCode, 400);
  assert.equal(error.param, param, error.message);
  if (code) assert.equal(error.code, code, error.message);
  if (message) assert.match(error.message, message);
  return true;
};

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

  // Offers: coupons.
  const team = await stripe.products.create({ name: 'RealtyPocket Teams' });
  const seat = await stripe.prices.create({ product: team.id, unit_amount: 1000, currency: 'usd', recurring: { interval: 'month' } });
  const launch = await stripe.coupons.create({
    id: 'LAUNCH25',
    name: 'Launch offer',
    percent_off: 25,
    duration: 'repeating',
    duration_in_months: 3,
    applies_to: { products: [product.id] },
    max_redemptions: 5,
    metadata: { campaign: 'launch' },
  });
  assert.deepEqual(
    [
      launch.id,
      launch.object,
      launch.name,
      launch.percent_off,
      launch.amount_off,
      launch.currency,
      launch.duration,
      launch.duration_in_months,
    ],
    ['LAUNCH25', 'coupon', 'Launch offer', 25, null, null, 'repeating', 3],
  );
  assert.deepEqual(
    [launch.max_redemptions, launch.times_redeemed, launch.valid, launch.redeem_by, launch.livemode, launch.metadata],
    [5, 0, true, null, false, { campaign: 'launch' }],
  );
  assert.equal(launch.applies_to, undefined, 'applies_to is only there when expanded');
  assert.deepEqual((await stripe.coupons.retrieve('LAUNCH25', { expand: ['applies_to'] })).applies_to, { products: [product.id] });
  const redeemBy = nowSeconds() + 30 * DAY;
  const fiveOffParams = { amount_off: 500, currency: 'USD', duration: 'once' as const, redeem_by: redeemBy };
  const fiveOff = await stripe.coupons.create(fiveOffParams, { idempotencyKey: 'coupon:five-off' });
  assert.match(fiveOff.id, /^[0-9A-Za-z]{8}$/);
  assert.deepEqual([fiveOff.amount_off, fiveOff.currency, fiveOff.percent_off, fiveOff.redeem_by], [500, 'usd', null, redeemBy]);
  assert.equal((await stripe.coupons.create(fiveOffParams, { idempotencyKey: 'coupon:five-off' })).id, fiveOff.id);
  await assert.rejects(stripe.coupons.create({ ...fiveOffParams, amount_off: 600 }, { idempotencyKey: 'coupon:five-off' }), {
    type: 'StripeIdempotencyError',
  });
  const friends = await stripe.coupons.create({ id: 'FRIENDS', percent_off: 12.5, duration: 'forever' });
  assert.deepEqual([friends.percent_off, friends.duration, friends.duration_in_months], [12.5, 'forever', null]);
  ok('coupons: percent and amount off, once/repeating/forever, applies_to on expansion, idempotency keys');

  await assert.rejects(stripe.coupons.create({ duration: 'once' }), refusal('percent_off', 'parameter_missing'));
  await assert.rejects(stripe.coupons.create({ percent_off: 10, amount_off: 100, currency: 'usd' }), refusal('amount_off'));
  await assert.rejects(stripe.coupons.create({ amount_off: 100 }), refusal('currency', 'parameter_missing'));
  await assert.rejects(
    stripe.coupons.create({ percent_off: 10, duration: 'repeating' }),
    refusal('duration_in_months', 'parameter_missing'),
  );
  await assert.rejects(
    stripe.coupons.create({ percent_off: 10, duration: 'forever', duration_in_months: 2 }),
    refusal('duration_in_months'),
  );
  await assert.rejects(stripe.coupons.create({ percent_off: 150 }), refusal('percent_off'));
  await assert.rejects(stripe.coupons.create({ percent_off: 10, redeem_by: nowSeconds() - 60 }), refusal('redeem_by'));
  await assert.rejects(stripe.coupons.create({ id: 'LAUNCH25', percent_off: 10 }), refusal('id', 'resource_already_exists'));
  await assert.rejects(
    stripe.coupons.create({ percent_off: 10, applies_to: { products: ['prod_missing'] } }),
    refusal('applies_to[products][0]', 'resource_missing', /No such product: 'prod_missing'/),
  );
  const couponPage = await stripe.coupons.list({ limit: 2 });
  assert.deepEqual([couponPage.data.map((coupon) => coupon.id), couponPage.has_more], [['FRIENDS', fiveOff.id], true]);
  const renamed = await stripe.coupons.update('FRIENDS', { name: 'Friends of the firm', metadata: { owner: 'sales' } });
  assert.deepEqual([renamed.name, renamed.metadata, renamed.percent_off], ['Friends of the firm', { owner: 'sales' }, 12.5]);
  const doomed = await stripe.coupons.create({ percent_off: 5 });
  const gone = await stripe.coupons.del(doomed.id);
  assert.deepEqual([gone.id, gone.object, gone.deleted], [doomed.id, 'coupon', true]);
  await assert.rejects(stripe.coupons.retrieve(doomed.id), {
    statusCode: 404,
    code: 'resource_missing',
    message: `No such coupon: '${doomed.id}'`,
  });
  ok('coupons: refusals, list, update and delete');

  // Offers: promotion codes, in the shape with `promotion`.
  const spring = await stripe.promotionCodes.create({
    promotion: { type: 'coupon', coupon: 'LAUNCH25' },
    code: 'Spring',
    max_redemptions: 2,
    metadata: { channel: 'email' },
  });
  assert.match(spring.id, /^promo_/);
  assert.deepEqual(spring.promotion, { type: 'coupon', coupon: 'LAUNCH25' });
  assert.deepEqual(
    [spring.object, spring.code, spring.active, spring.times_redeemed, spring.max_redemptions, spring.expires_at, spring.metadata],
    ['promotion_code', 'Spring', true, 0, 2, null, { channel: 'email' }],
  );
  assert.equal('coupon' in spring, false, 'no top-level coupon in this API version');
  const springCoupon = (await stripe.promotionCodes.retrieve(spring.id, { expand: ['promotion.coupon'] })).promotion.coupon;
  assert.ok(typeof springCoupon === 'object' && springCoupon?.percent_off === 25);
  await assert.rejects(
    stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: 'FRIENDS' }, code: 'SPRING' }),
    refusal('code', undefined, /^An active promotion code with `code: SPRING` already exists\.$/),
  );
  await assert.rejects(
    stripe.promotionCodes.create({ coupon: 'LAUNCH25', code: 'LEGACY' } as unknown as Stripe.PromotionCodeCreateParams),
    refusal('coupon', 'parameter_unknown'),
  );
  await assert.rejects(stripe.promotionCodes.create({ promotion: { type: 'coupon' } }), refusal('promotion[coupon]', 'parameter_missing'));
  await assert.rejects(
    stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: 'NOPE' } }),
    refusal('promotion[coupon]', 'resource_missing'),
  );
  await assert.rejects(
    stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: 'FRIENDS' }, expires_at: nowSeconds() - 1 }),
    refusal('expires_at'),
  );
  await assert.rejects(
    stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: fiveOff.id }, expires_at: redeemBy + DAY }),
    refusal('expires_at'),
  );
  const generated = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: fiveOff.id } });
  assert.match(generated.code, /^[A-Z0-9]{8}$/);
  const autumn = await stripe.promotionCodes.create({
    promotion: { type: 'coupon', coupon: 'LAUNCH25' },
    code: 'AUTUMN',
    expires_at: nowSeconds() + DAY,
  });
  assert.equal(autumn.expires_at! > nowSeconds(), true);
  const paused = await stripe.promotionCodes.update(autumn.id, { active: false, metadata: { reason: 'paused' } });
  assert.deepEqual([paused.active, paused.metadata], [false, { reason: 'paused' }]);
  // An inactive code frees its code (any case) for another promotion code, which then blocks reactivating it.
  const friendsCode = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: 'FRIENDS' }, code: 'autumn' });
  await assert.rejects(stripe.promotionCodes.update(autumn.id, { active: true }), refusal('code', undefined, /already exists/));
  const byCode = async (params: Stripe.PromotionCodeListParams) => (await stripe.promotionCodes.list(params)).data.map((code) => code.id);
  assert.deepEqual(await byCode({ code: 'spring' }), [spring.id]);
  assert.deepEqual(await byCode({ code: 'AUTUMN' }), [friendsCode.id, autumn.id]);
  assert.deepEqual(await byCode({ code: 'AUTUMN', active: true }), [friendsCode.id]);
  assert.deepEqual(await byCode({ active: false }), [autumn.id]);
  assert.deepEqual(await byCode({ coupon: 'LAUNCH25' }), [autumn.id, spring.id]);
  ok('promotion codes: create (promotion.coupon), unique active code whatever its case, update, list by code/active/coupon');

  // Checkout with a discount, and seats.
  const teamCustomer = await stripe.customers.create({ email: 'team@example.com', name: 'Team Lead' });
  const base = {
    mode: 'subscription' as const,
    customer: teamCustomer.id,
    success_url: 'http://site.test/account/billing?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://site.test/pricing',
  };
  const threeSeats = [{ price: monthly.id, quantity: 3 }];
  const discounted = await stripe.checkout.sessions.create({ ...base, line_items: threeSeats, discounts: [{ promotion_code: spring.id }] });
  assert.deepEqual([discounted.amount_subtotal, discounted.total_details?.amount_discount, discounted.amount_total], [4500, 1125, 3375]);
  assert.deepEqual(discounted.discounts, [{ coupon: null, promotion_code: spring.id }]);
  const discountedLine = (await stripe.checkout.sessions.listLineItems(discounted.id)).data[0]!;
  assert.deepEqual(
    [discountedLine.quantity, discountedLine.amount_subtotal, discountedLine.amount_discount, discountedLine.amount_total],
    [3, 4500, 1125, 3375],
  );
  const discountedPage = await (await fetch(discounted.url!)).text();
  assert.match(discountedPage, /RealtyPocket Pro<\/strong> × 3/);
  assert.match(discountedPage, /Subtotal: \$45\.00/);
  assert.match(discountedPage, /Discount Spring \(25% off for 3 months\): −\$11\.25/);
  assert.match(discountedPage, /Total due today: \$33\.75/);
  ok('checkout session with a promotion code and 3 seats: amounts, total_details, line items and page');

  const teamSession = (extra: Partial<Stripe.Checkout.SessionCreateParams>) =>
    stripe.checkout.sessions.create({ ...base, line_items: threeSeats, ...extra });
  await assert.rejects(
    teamSession({ discounts: [{ promotion_code: spring.id }], allow_promotion_codes: true }),
    refusal('allow_promotion_codes', undefined, /^You may only specify one of these parameters: allow_promotion_codes, discounts\.$/),
  );
  await assert.rejects(
    teamSession({ discounts: [{ promotion_code: autumn.id }] }),
    refusal('discounts[0][promotion_code]', undefined, /cannot be redeemed because it is inactive/),
  );
  const summer = await stripe.promotionCodes.create({
    promotion: { type: 'coupon', coupon: 'FRIENDS' },
    code: 'SUMMER',
    expires_at: nowSeconds() + DAY,
  });
  fake.state.promotionCodes.get(summer.id).expires_at = nowSeconds() - 1; // time passes
  await assert.rejects(
    teamSession({ discounts: [{ promotion_code: summer.id }] }),
    refusal('discounts[0][promotion_code]', undefined, /cannot be redeemed because it has expired/),
  );
  const single = await stripe.promotionCodes.create({
    promotion: { type: 'coupon', coupon: 'FRIENDS' },
    code: 'SINGLE',
    max_redemptions: 1,
  });
  fake.state.promotionCodes.get(single.id).times_redeemed = 1; // someone used it
  await assert.rejects(
    teamSession({ discounts: [{ promotion_code: single.id }] }),
    refusal(
      'discounts[0][promotion_code]',
      undefined,
      /^This promotion code cannot be redeemed because it has been used the maximum number of times\.$/,
    ),
  );
  await assert.rejects(
    teamSession({ line_items: [{ price: seat.id, quantity: 2 }], discounts: [{ coupon: 'LAUNCH25' }] }),
    refusal('discounts[0][coupon]', undefined, /does not apply to any of the products/),
  );
  await assert.rejects(teamSession({ discounts: [{ coupon: 'NOPE' }] }), refusal('discounts[0][coupon]', 'resource_missing'));
  await assert.rejects(
    teamSession({ discounts: [{ promotion_code: 'promo_nope' }] }),
    refusal('discounts[0][promotion_code]', 'resource_missing'),
  );
  await assert.rejects(teamSession({ discounts: [{ coupon: 'FRIENDS', promotion_code: spring.id }] }), refusal('discounts[0]'));
  await assert.rejects(teamSession({ subscription_data: { trial_period_days: 0 } }), refusal('subscription_data[trial_period_days]'));
  ok('checkout refuses discounts with allow_promotion_codes, inactive, expired and used-up codes, coupons for other products');

  received.length = 0;
  const discountedSub = await fake.completeCheckout(discounted.id);
  assert.deepEqual(received, ['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
  assert.deepEqual([discountedSub.status, discountedSub.items.data[0].quantity, discountedSub.discounts.length], ['active', 3, 1]);
  const discountId: string = discountedSub.discounts[0];
  assert.match(discountId, /^di_/);
  const withDiscount = await stripe.subscriptions.retrieve(discountedSub.id, { expand: ['discounts.source.coupon'] });
  const discount = withDiscount.discounts[0] as Stripe.Discount;
  assert.deepEqual(
    [discount.id, discount.object, discount.promotion_code, discount.subscription, discount.customer, discount.checkout_session],
    [discountId, 'discount', spring.id, discountedSub.id, teamCustomer.id, discounted.id],
  );
  assert.equal(discount.source.type, 'coupon');
  assert.ok(typeof discount.source.coupon === 'object' && discount.source.coupon?.id === 'LAUNCH25');
  const monthsLater = (discount.end! - discount.start) / DAY;
  assert.ok(monthsLater >= 89 && monthsLater <= 92, `a repeating coupon of 3 months ends 3 months on, not ${monthsLater} days`);
  const shallow = (await stripe.subscriptions.retrieve(discountedSub.id, { expand: ['discounts'] })).discounts[0] as Stripe.Discount;
  assert.equal(shallow.source.coupon, 'LAUNCH25');
  const firstInvoice = await stripe.invoices.retrieve(discountedSub.latest_invoice);
  assert.deepEqual(
    [firstInvoice.billing_reason, firstInvoice.subtotal, firstInvoice.total, firstInvoice.amount_paid, firstInvoice.discounts],
    ['subscription_create', 4500, 3375, 3375, [discountId]],
  );
  assert.deepEqual(firstInvoice.total_discount_amounts, [{ amount: 1125, discount: discountId }]);
  assert.deepEqual(firstInvoice.lines.data[0]!.discount_amounts, [{ amount: 1125, discount: discountId }]);
  assert.equal(fake.state.paymentIntents.get(fake.state.invoices.get(firstInvoice.id).payment_intent).amount, 3375);
  assert.equal((await stripe.coupons.retrieve('LAUNCH25')).times_redeemed, 1);
  assert.equal((await stripe.promotionCodes.retrieve(spring.id)).times_redeemed, 1);
  ok('completeCheckout with a discount: Discount on the subscription (expandable), discounted invoice, redemptions counted');

  const renewedTotals: number[] = [];
  let renewedDiscounts: string[][] = [];
  for (let month = 1; month <= 3; month += 1) {
    const renewedMonth = await fake.renewSubscription(discountedSub.id);
    renewedTotals.push(fake.state.invoices.get(renewedMonth.latest_invoice).total);
    renewedDiscounts = [...renewedDiscounts, renewedMonth.discounts];
  }
  assert.deepEqual(renewedTotals, [3375, 3375, 4500], 'a 3-month coupon: the first invoice and two renewals');
  assert.deepEqual(renewedDiscounts, [[discountId], [discountId], []]);
  assert.deepEqual((await stripe.subscriptions.retrieve(discountedSub.id)).discounts, []);
  ok('renewSubscription: a repeating discount lasts its months, then leaves subscription.discounts');

  // A free trial with a once coupon.
  const trialSession = await teamSession({
    line_items: [{ price: monthly.id, quantity: 1 }],
    discounts: [{ coupon: fiveOff.id }],
    subscription_data: { trial_period_days: 14, metadata: { plan: 'trial' } },
  });
  assert.deepEqual([trialSession.amount_subtotal, trialSession.amount_total, trialSession.total_details?.amount_discount], [0, 0, 0]);
  assert.deepEqual(trialSession.discounts, [{ coupon: fiveOff.id, promotion_code: null }]);
  const trialPage = await (await fetch(trialSession.url!)).text();
  assert.match(trialPage, /<p>14 days free<\/p>/);
  assert.match(trialPage, /\(\$5\.00 off once\)/);
  assert.match(trialPage, /Total due today: \$0\.00/);
  received.length = 0;
  const trialing = await fake.completeCheckout(trialSession.id);
  assert.deepEqual(received, ['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
  assert.equal(trialing.status, 'trialing');
  assert.equal(trialing.trial_end - trialing.trial_start, 14 * DAY);
  assert.deepEqual(
    [trialing.current_period_start, trialing.current_period_end, trialing.items.data[0].current_period_end],
    [trialing.trial_start, trialing.trial_end, trialing.trial_end],
  );
  assert.deepEqual(trialing.metadata, { plan: 'trial' });
  const trialInvoice = await stripe.invoices.retrieve(trialing.latest_invoice, { expand: ['payments'] });
  assert.deepEqual(
    [trialInvoice.status, trialInvoice.billing_reason, trialInvoice.total, trialInvoice.amount_paid, trialInvoice.payments?.data.length],
    ['paid', 'subscription_create', 0, 0, 0],
  );
  assert.deepEqual(
    [trialInvoice.total_discount_amounts, trialInvoice.lines.data[0]!.description],
    [[], 'Trial period for RealtyPocket Pro'],
  );
  const retrievedTrial = await stripe.subscriptions.retrieve(trialing.id);
  assert.deepEqual([retrievedTrial.trial_end, retrievedTrial.items.data[0]!.quantity], [trialing.trial_end, 1]);
  ok('completeCheckout with trial_period_days: trialing, current period = trial, a paid invoice of 0');

  received.length = 0;
  const afterTrial = await fake.renewSubscription(trialing.id);
  assert.deepEqual(received, ['invoice.paid', 'customer.subscription.updated']);
  assert.equal(fake.events.at(-1)!.event.data.previous_attributes.status, 'trialing');
  assert.deepEqual([afterTrial.status, afterTrial.current_period_start], ['active', trialing.trial_end]);
  const afterTrialDays = (afterTrial.current_period_end - afterTrial.current_period_start) / DAY;
  assert.ok(afterTrialDays >= 28 && afterTrialDays <= 31);
  const firstPaid = fake.state.invoices.get(afterTrial.latest_invoice);
  assert.deepEqual(
    [firstPaid.billing_reason, firstPaid.subtotal, firstPaid.total, firstPaid.amount_paid],
    ['subscription_cycle', 1500, 1000, 1000],
  );
  assert.deepEqual(afterTrial.discounts, trialing.discounts, 'a used once coupon stays until the next invoice');
  const secondPaid = await fake.renewSubscription(trialing.id);
  assert.deepEqual([fake.state.invoices.get(secondPaid.latest_invoice).total, secondPaid.discounts], [1500, []]);
  assert.equal((await stripe.coupons.retrieve(fiveOff.id)).times_redeemed, 1);
  ok('renewSubscription after a trial: active, full price less a once coupon on the first paid invoice only');

  // An amount-off coupon larger than the price, used up by one redemption, then deleted.
  const bigOff = await stripe.coupons.create({ id: 'BIGOFF', amount_off: 2000, currency: 'usd', duration: 'forever', max_redemptions: 1 });
  const bigCode = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: bigOff.id }, code: 'BIG' });
  const free = await teamSession({ line_items: [{ price: seat.id, quantity: 1 }], discounts: [{ coupon: 'BIGOFF' }] });
  assert.deepEqual([free.amount_subtotal, free.total_details?.amount_discount, free.amount_total], [1000, 1000, 0]);
  const freeSub = await fake.completeCheckout(free.id);
  const freeInvoice = fake.state.invoices.get(freeSub.latest_invoice);
  assert.deepEqual([freeInvoice.subtotal, freeInvoice.total, freeInvoice.amount_paid, freeInvoice.payment_intent], [1000, 0, 0, null]);
  assert.deepEqual(await stripe.coupons.retrieve('BIGOFF').then((coupon) => [coupon.times_redeemed, coupon.valid]), [1, false]);
  assert.equal((await stripe.promotionCodes.retrieve(bigCode.id)).active, false, 'a code is active only while its coupon is valid');
  await assert.rejects(
    teamSession({ line_items: [{ price: seat.id, quantity: 1 }], discounts: [{ coupon: 'BIGOFF' }] }),
    refusal('discounts[0][coupon]', 'coupon_expired', /^Coupon expired: BIGOFF$/),
  );
  await stripe.coupons.del('BIGOFF');
  const keptDiscount = await fake.renewSubscription(freeSub.id);
  assert.equal(fake.state.invoices.get(keptDiscount.latest_invoice).total, 0, 'deleting a coupon keeps the discounts made from it');
  const deletedSource = (await stripe.subscriptions.retrieve(freeSub.id, { expand: ['discounts.source.coupon'] }))
    .discounts[0] as Stripe.Discount;
  assert.ok(typeof deletedSource.source.coupon === 'object' && deletedSource.source.coupon?.amount_off === 2000);
  ok('amount off never below 0 (no payment for 0), a used-up coupon is invalid, a deleted one keeps its discounts');

  // Promotion codes typed by the customer on the checkout page, or given to completeCheckout.
  const typed = await teamSession({ line_items: [{ price: seat.id, quantity: 2 }], allow_promotion_codes: true });
  const typedUrl = typed.url!;
  assert.match(await (await fetch(typedUrl)).text(), /<input name="code"/);
  const typeCode = (code: string) =>
    fetch(`${typedUrl}/promotion_code`, { method: 'POST', body: new URLSearchParams({ code }), redirect: 'manual' });
  const wrong = await typeCode('NOPE');
  assert.equal(wrong.status, 400);
  assert.match(await wrong.text(), /This code is invalid\./);
  assert.match(await (await typeCode('SPRING')).text(), /does not apply to any of the products/, 'LAUNCH25 is for Pro only');
  const applied = await typeCode('Autumn');
  assert.deepEqual([applied.status, applied.headers.get('location')], [303, `/checkout/${typed.id}`]);
  const typedPage = await (await fetch(typedUrl)).text();
  assert.match(typedPage, /Discount autumn \(12\.5% off forever\): −\$2\.50/);
  assert.match(typedPage, /Total due today: \$17\.50/);
  assert.doesNotMatch(typedPage, /<input name="code"/);
  const typedSession = await stripe.checkout.sessions.retrieve(typed.id);
  assert.deepEqual([typedSession.amount_total, typedSession.discounts], [1750, [{ coupon: null, promotion_code: friendsCode.id }]]);
  const teamSub = await fake.completeCheckout(typed.id);
  assert.equal(teamSub.discounts.length, 1);
  assert.equal(fake.state.invoices.get(teamSub.latest_invoice).total, 1750);

  const later = await teamSession({ line_items: [{ price: seat.id, quantity: 1 }], allow_promotion_codes: true });
  await assert.rejects(fake.completeCheckout(later.id, { promotionCode: 'NOPE' }), /promotion code NOPE refused: This code is invalid/);
  const laterSub = await fake.completeCheckout(later.id, { promotionCode: 'autumn' });
  assert.equal(fake.state.invoices.get(laterSub.latest_invoice).total, 875);
  assert.equal((await stripe.promotionCodes.retrieve(friendsCode.id)).times_redeemed, 2);
  await assert.rejects(fake.completeCheckout(discounted.id, { promotionCode: 'autumn' }), /is complete, not open/);
  ok('allow_promotion_codes: the checkout page takes a code (refusing bad ones), and so does completeCheckout');

  // Seats.
  const seatItem = teamSub.items.data[0];
  received.length = 0;
  const grown = await stripe.subscriptions.update(teamSub.id, {
    items: [{ id: seatItem.id, quantity: 5 }],
    proration_behavior: 'always_invoice',
  });
  assert.equal(grown.items.data[0]!.quantity, 5);
  await fake.webhooksSettled();
  assert.deepEqual(received, ['customer.subscription.updated', 'invoice.paid']);
  const grownEvent = fake.events.findLast((entry) => entry.type === 'customer.subscription.updated')!.event;
  assert.deepEqual([grownEvent.data.object.items.data[0].quantity, grownEvent.data.previous_attributes.items.data[0].quantity], [5, 2]);
  const prorated = await stripe.invoices.retrieve(grown.latest_invoice as string);
  const proratedLine = prorated.lines.data[0]!;
  assert.deepEqual(
    [prorated.billing_reason, prorated.status, proratedLine.quantity, proratedLine.parent?.subscription_item_details?.proration],
    ['subscription_update', 'paid', 3, true],
  );
  assert.ok(prorated.subtotal >= 2990 && prorated.subtotal <= 3000, `3 seats × $10 × (nearly) the whole month, not ${prorated.subtotal}`);
  assert.equal(prorated.total, prorated.subtotal - Math.round(prorated.subtotal * 0.125), 'the forever coupon applies');
  assert.equal(prorated.amount_paid, prorated.total);

  received.length = 0;
  const shrunk = await stripe.subscriptions.update(teamSub.id, {
    items: [{ id: seatItem.id, quantity: 1 }],
    proration_behavior: 'always_invoice',
  });
  await fake.webhooksSettled();
  assert.deepEqual(
    [shrunk.items.data[0]!.quantity, shrunk.latest_invoice, received],
    [1, grown.latest_invoice, ['customer.subscription.updated']],
  );

  const pending = await stripe.subscriptions.update(teamSub.id, { items: [{ id: seatItem.id, quantity: 3 }] }); // create_prorations
  assert.equal(pending.latest_invoice, grown.latest_invoice, 'create_prorations bills at the next renewal');
  const withProration = fake.state.invoices.get((await fake.renewSubscription(teamSub.id)).latest_invoice);
  assert.deepEqual(
    withProration.lines.data.map((line: { quantity: number; parent: { subscription_item_details: { proration: boolean } } }) => [
      line.quantity,
      line.parent.subscription_item_details.proration,
    ]),
    [
      [2, true],
      [3, false],
    ],
  );
  assert.ok(withProration.subtotal >= 4990 && withProration.subtotal <= 5000, String(withProration.subtotal));

  await stripe.subscriptions.update(teamSub.id, { items: [{ id: seatItem.id, quantity: 4 }], proration_behavior: 'none' });
  const unprorated = fake.state.invoices.get((await fake.renewSubscription(teamSub.id)).latest_invoice);
  assert.deepEqual([unprorated.subtotal, unprorated.total], [4000, 3500]);
  await assert.rejects(
    stripe.subscriptions.update(teamSub.id, { items: [{ id: seatItem.id, quantity: -1 }] }),
    refusal('items[0][quantity]'),
  );
  const seatsNow = await stripe.subscriptions.retrieve(teamSub.id);
  assert.deepEqual([seatsNow.items.data[0]!.quantity, seatsNow.trial_end], [4, null]);
  await fake.webhooksSettled();
  ok('subscriptions.update quantity: always_invoice bills added seats prorated, create_prorations at renewal, none not at all; event sent');

  // A trial that ends without a payment method.
  const trialOnly = async () =>
    fake.completeCheckout(
      (await teamSession({ line_items: [{ price: seat.id, quantity: 1 }], subscription_data: { trial_period_days: 7 } })).id,
      { sendWebhooks: false },
    );
  const lapsed = await trialOnly();
  received.length = 0;
  const ended = await fake.endTrialWithoutPayment(lapsed.id);
  assert.deepEqual([ended.status, ended.ended_at, received], ['canceled', lapsed.trial_end, ['customer.subscription.deleted']]);
  received.length = 0;
  const pausedTrial = await fake.endTrialWithoutPayment((await trialOnly()).id, { behavior: 'pause' });
  assert.deepEqual([pausedTrial.status, received], ['paused', ['customer.subscription.paused', 'customer.subscription.updated']]);
  ok('endTrialWithoutPayment: cancel or pause');

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
  await assert.rejects(stripe.taxRates.list(), { statusCode: 404 });
  ok('signedEvent/sendEvent verify; 404, 401 and unknown endpoints answer Stripe errors');

  assert.ok(fake.calls.length > 30);
  assert.ok(fake.calls.every((call) => call.path.startsWith('/v1/')));
} finally {
  await fake.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
}
console.log('all checks passed');
