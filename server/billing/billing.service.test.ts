import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BILLING_OFF, type Plan } from '../../common/billing.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import { auditLog, members, subscriptions } from '../../db/schema.ts';
import { lastAuditEntry, refusal, serviceTestApp, SIGN_IN_FIRST, stripeBillingFor } from '../../tests/helpers/service-tests.ts';

// The members' billing: without Stripe it says so and shows what is stored; with Stripe (the tests'
// Stripe-compatible server) a member checks out once, changes plan, cancels at the period's end and
// resumes, each change read back from Stripe and recorded.

const t = serviceTestApp();
const stripe = stripeBillingFor(t);
const SILVER: Plan = { tier: 'silver', period: 'monthly' };
const GOLD: Plan = { tier: 'gold', period: 'monthly' };
const OFF = { status: 503, message: BILLING_OFF };
const NO_PAID_PLAN = { status: 409, message: 'You do not have a paid membership. Choose a plan on the pricing page.' };
const SAME_PLAN = { status: 409, message: 'You already have this plan.' };

const tierOf = async (viewer: { member: { id: string } }) =>
  (await t.db.select({ tier: members.membershipTier }).from(members).where(eq(members.id, viewer.member.id)))[0]!.tier;

describe('billing off (no Stripe settings)', () => {
  const billing = () => t.app.services.billing;

  it('asks visitors and staff to sign in as a member for every call', async () => {
    for (const viewer of [t.asVisitor(), await t.asStaff('owner')]) {
      for (const call of [
        () => billing().checkout(viewer, SILVER),
        () => billing().subscription(viewer),
        () => billing().overview(viewer),
        () => billing().invoices(viewer),
        () => billing().refresh(viewer),
        () => billing().portal(viewer),
        () => billing().changePlan(viewer, GOLD),
        () => billing().cancelAtPeriodEnd(viewer),
        () => billing().resume(viewer),
      ])
        expect(await refusal(call)).toEqual(SIGN_IN_FIRST);
    }
  });

  it('says payment is off for whatever needs Stripe, and shows the member what is stored', async () => {
    expect(billing().enabled).toBe(false);
    expect(billing().webhooks).toBeUndefined();
    const member = await t.asMember('free');
    for (const call of [
      () => billing().checkout(member, SILVER),
      () => billing().portal(member),
      () => billing().invoices(member),
      () => billing().changePlan(member, GOLD),
      () => billing().cancelAtPeriodEnd(member),
      () => billing().resume(member),
    ])
      expect(await refusal(call)).toEqual(OFF);
    await expect(billing().refresh(member)).resolves.toBeUndefined();
    expect(await billing().subscription(member)).toBeNull();
    expect(await billing().overview(await t.asMember('silver'))).toEqual({
      enabled: false,
      subscription: null,
      offer: null,
      complimentary_tier: 'silver',
      invoices: [],
    });
  });

  it('shows a stored subscription until it has ended', async () => {
    const member = await t.asMember('free');
    const row = {
      memberId: member.member.id,
      customerId: 'cus_stored',
      tier: 'bronze' as const,
      period: 'yearly' as const,
      priceId: 'price_stored',
      amountCents: 29000,
      currency: 'usd',
      currentPeriodEnd: new Date('2099-01-01T00:00:00Z'),
      startedAt: new Date('2026-01-01T00:00:00Z'),
    };
    await t.db
      .insert(subscriptions)
      .values({ ...row, id: 'sub_stored_ended', status: 'canceled', startedAt: new Date('2025-01-01T00:00:00Z') });
    await t.db.insert(subscriptions).values({ ...row, id: 'sub_stored_live', status: 'past_due' });
    expect(await t.app.services.billing.subscription(member)).toEqual({
      id: 'sub_stored_live',
      tier: 'bronze',
      period: 'yearly',
      status: 'past_due',
      amount_cents: 29000,
      currency: 'usd',
      cancel_at_period_end: false,
      current_period_end: '2099-01-01T00:00:00.000Z',
      started_at: '2026-01-01T00:00:00.000Z',
      ended_at: null,
      refunded_at: null,
      trial_ends_at: null,
      gives_access: true,
    });
    const ended = await t.asMember('free');
    await t.db.insert(subscriptions).values({ ...row, memberId: ended.member.id, id: 'sub_only_ended', status: 'canceled' });
    expect(await t.app.services.billing.subscription(ended)).toBeNull();
  });
});

describe('billing with Stripe', () => {
  it('opens a checkout for the plan with the member as Stripe customer, made once, and one open checkout at a time', async () => {
    const member = await t.asMember('free', { name: 'Casey Checkout' });
    const first = await stripe.billing.checkout(member, SILVER);
    expect(first.url).toMatch(new RegExp(`^${stripe.fake.url}/checkout/cs_test_`));
    const second = await stripe.billing.checkout(member, { tier: 'gold', period: 'yearly' });
    const sessionOf = (url: string) => stripe.fake.state.checkoutSessions.get(new URL(url).pathname.split('/').pop()!);
    expect(sessionOf(first.url).status).toBe('expired');
    expect(sessionOf(second.url)).toMatchObject({
      status: 'open',
      client_reference_id: member.member.id,
      success_url: `${stripe.publicUrl}/dashboard?checkout=success`,
      cancel_url: `${stripe.publicUrl}/pricing`,
    });
    const customers = [...stripe.fake.state.customers.values()].filter((customer) => customer.metadata?.member_id === member.member.id);
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({ email: member.member.email, name: 'Casey Checkout' });
  });

  it('stores the paid subscription from Stripe and gives its tier; then refuses a second checkout', async () => {
    const member = await t.asMember('free');
    const subscription = await stripe.subscribe(member, SILVER);
    expect(subscription).toMatchObject({
      tier: 'silver',
      period: 'monthly',
      status: 'active',
      amount_cents: 7900,
      currency: 'usd',
      cancel_at_period_end: false,
      gives_access: true,
    });
    expect(await tierOf(member)).toBe('silver');
    expect(await refusal(stripe.billing.checkout(member, SILVER))).toEqual(SAME_PLAN);
    expect(await refusal(stripe.billing.checkout(member, GOLD))).toEqual({
      status: 409,
      message: 'You already have a paid membership. Change your plan on your billing page.',
    });
    const overview = await stripe.billing.overview(member);
    expect(overview).toMatchObject({ enabled: true, subscription: { id: subscription.id }, complimentary_tier: null });
    expect(overview.invoices.map((invoice) => [invoice.status, invoice.amount_cents, invoice.currency])).toEqual([['paid', 7900, 'usd']]);
    expect((await stripe.billing.portal(member)).url).toEqual(expect.any(String));
  });

  it('changes the plan in Stripe and here, recording it; refuses the plan the member has', async () => {
    const member = await t.asMember('free');
    await stripe.subscribe(member, SILVER);
    expect(await refusal(stripe.billing.changePlan(member, SILVER))).toEqual(SAME_PLAN);
    const changed = await stripe.billing.changePlan(member, GOLD);
    expect(changed).toMatchObject({ tier: 'gold', period: 'monthly', amount_cents: 14900 });
    expect(await tierOf(member)).toBe('gold');
    expect(await lastAuditEntry(t, { action: 'billing.plan_change', target: member.member.email })).toMatchObject({
      actorEmail: member.member.email,
      oldValue: 'Silver (monthly)',
      newValue: 'Gold (monthly)',
    });
  });

  it('cancels at the period’s end (keeping the tier until then) and resumes, once each', async () => {
    const member = await t.asMember('free');
    const paid = await stripe.subscribe(member, SILVER);
    const ending = await stripe.billing.cancelAtPeriodEnd(member);
    expect(ending).toMatchObject({ id: paid.id, cancel_at_period_end: true, status: 'active', gives_access: true });
    expect(stripe.fake.state.subscriptions.get(paid.id).cancel_at_period_end).toBe(true);
    expect(await tierOf(member)).toBe('silver');
    expect(await lastAuditEntry(t, { action: 'billing.cancel', target: member.member.email })).toMatchObject({
      newValue: `ends ${paid.current_period_end.slice(0, 10)}`,
    });
    // Asked again, nothing changes and nothing more is recorded.
    const entries = async () => (await t.db.select().from(auditLog).where(eq(auditLog.target, member.member.email))).length;
    const before = await entries();
    expect((await stripe.billing.cancelAtPeriodEnd(member)).cancel_at_period_end).toBe(true);
    expect(await entries()).toBe(before);

    expect(await stripe.billing.resume(member)).toMatchObject({ cancel_at_period_end: false });
    expect(await refusal(stripe.billing.resume(member))).toEqual({
      status: 409,
      message: 'Your membership is not set to end: there is nothing to resume.',
    });
  });

  it('refuses plan changes to a member without a paid plan, and the portal before they have paid details', async () => {
    const member: Viewer = await t.asMember('free');
    for (const call of [
      () => stripe.billing.changePlan(member, GOLD),
      () => stripe.billing.cancelAtPeriodEnd(member),
      () => stripe.billing.resume(member),
    ])
      expect(await refusal(call)).toEqual(NO_PAID_PLAN);
    expect(await refusal(stripe.billing.portal(member))).toEqual({
      status: 409,
      message: 'You have no payment details with us yet. Choose a plan on the pricing page first.',
    });
    expect(await stripe.billing.invoices(member)).toEqual([]);
  });

  it('follows a new email address to Stripe, and ends every subscription in Stripe before an account is deleted', async () => {
    const member = await t.asMember('free');
    const paid = await stripe.subscribe(member, SILVER);
    const customerId = stripe.fake.state.subscriptions.get(paid.id).customer;
    await stripe.billing.emailChanged(member.member.id, 'new-address@example.com');
    expect(stripe.fake.state.customers.get(customerId).email).toBe('new-address@example.com');
    await stripe.billing.endSubscriptionsOf(member.member.id);
    expect(stripe.fake.state.subscriptions.get(paid.id).status).toBe('canceled');
  });
});
