import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BILLING_OFF, type Plan, type SubscriptionStatus } from '../../common/billing.contract.ts';
import { members, subscriptions } from '../../db/schema.ts';
import {
  expectRefusedToEveryoneBut,
  lastAuditEntry,
  refusal,
  serviceTestApp,
  stripeBillingFor,
} from '../../tests/helpers/service-tests.ts';

// The owners' side of billing: the revenue figures, read from the stored subscriptions, and the
// money-back guarantee (a first subscription, within 30 days: every payment refunded, then ended).

const t = serviceTestApp();
const stripe = stripeBillingFor(t);
const SILVER: Plan = { tier: 'silver', period: 'monthly' };
const MISSING_MEMBER = '00000000-0000-4000-8000-000000000000';
const DAY_MS = 24 * 60 * 60 * 1000;

let numbered = 0;
/** A stored subscription of a new member (as the webhooks leave it), for the revenue figures. */
async function storedSubscription(status: SubscriptionStatus, plan: Plan, amountCents: number) {
  const member = await t.asMember('free');
  await t.db.insert(subscriptions).values({
    id: `sub_revenue_${++numbered}`,
    memberId: member.member.id,
    customerId: `cus_revenue_${numbered}`,
    status,
    tier: plan.tier,
    period: plan.period,
    priceId: `price_${plan.tier}_${plan.period}`,
    amountCents,
    currency: 'usd',
    currentPeriodEnd: new Date('2099-01-01T00:00:00Z'),
    startedAt: new Date(),
  });
}

describe('the owners’ billing, whether Stripe is on or not', () => {
  it('is for owners only', async () => {
    await expectRefusedToEveryoneBut('owners', t, (viewer) => [
      () => t.app.services.billingAdmin.revenue(viewer),
      () => t.app.services.billingAdmin.refundFirstSubscription(viewer, MISSING_MEMBER),
    ]);
  });

  it('counts the subscriptions being paid for by plan, yearly ones as a twelfth a month', async () => {
    const owner = await t.asStaff('owner');
    expect(await t.app.services.billingAdmin.revenue(owner)).toEqual({
      active_by_plan: [],
      active_count: 0,
      monthly_recurring_cents: 0,
      currency: 'usd',
    });
    await storedSubscription('active', SILVER, 7900);
    await storedSubscription('active', SILVER, 7900);
    await storedSubscription('past_due', { tier: 'bronze', period: 'monthly' }, 2900);
    await storedSubscription('active', { tier: 'gold', period: 'yearly' }, 149000);
    // Not paying: ended, not yet paid, or on a trial.
    await storedSubscription('canceled', { tier: 'gold', period: 'monthly' }, 14900);
    await storedSubscription('incomplete', { tier: 'gold', period: 'monthly' }, 14900);
    await storedSubscription('trialing', { tier: 'bronze', period: 'monthly' }, 2900);

    const revenue = await t.app.services.billingAdmin.revenue(owner);
    expect(revenue).toMatchObject({ active_count: 4, monthly_recurring_cents: 31117, currency: 'usd' });
    expect(revenue.active_by_plan).toHaveLength(3);
    expect(revenue.active_by_plan).toEqual(
      expect.arrayContaining([
        { tier: 'silver', period: 'monthly', count: 2 },
        { tier: 'bronze', period: 'monthly', count: 1 },
        { tier: 'gold', period: 'yearly', count: 1 },
      ]),
    );
  });

  it('says payment is off when asked for a refund without Stripe', async () => {
    const member = await t.asMember('free');
    expect(await refusal(t.app.services.billingAdmin.refundFirstSubscription(await t.asStaff('owner'), member.member.id))).toEqual({
      status: 503,
      message: BILLING_OFF,
    });
  });
});

describe('the money-back guarantee, with Stripe', () => {
  const refund = async (memberId: string) => stripe.billingAdmin.refundFirstSubscription(await t.asStaff('owner'), memberId);

  it('refuses an unknown member and a member who never subscribed', async () => {
    expect(await refusal(refund(MISSING_MEMBER))).toEqual({ status: 404, message: 'Member not found' });
    expect(await refusal(refund((await t.asMember('free')).member.id))).toEqual({
      status: 409,
      message: 'This member has no subscription to refund.',
    });
  });

  it('refunds every payment of a first subscription and ends it at once, once, taking the tier away', async () => {
    const member = await t.asMember('free');
    const paid = await stripe.subscribe(member, SILVER);
    const owner = await t.asStaff('owner');
    const refunded = await stripe.billingAdmin.refundFirstSubscription(owner, member.member.id);
    expect(refunded).toMatchObject({
      refunded_cents: 7900,
      subscription: { id: paid.id, status: 'canceled', gives_access: false, refunded_at: expect.any(String) },
    });
    expect([...stripe.fake.state.refunds.values()].filter((each) => each.metadata?.subscription === paid.id)).toHaveLength(1);
    expect(stripe.fake.state.subscriptions.get(paid.id).status).toBe('canceled');
    const [account] = await t.db.select({ tier: members.membershipTier }).from(members).where(eq(members.id, member.member.id));
    expect(account!.tier).toBe('free');
    expect(await lastAuditEntry(t, { action: 'billing.refund', target: member.member.email })).toMatchObject({
      actorEmail: owner.staff.email,
      oldValue: 'Silver (monthly)',
      newValue: 'refunded 79.00 USD and canceled',
    });
    expect(await refusal(stripe.billingAdmin.refundFirstSubscription(owner, member.member.id))).toEqual({
      status: 409,
      message: `This subscription was already refunded on ${refunded.subscription.refunded_at!.slice(0, 10)}.`,
    });
  });

  it('covers only the first 30 days of a first subscription', async () => {
    const late = await t.asMember('free');
    const paid = await stripe.subscribe(late, SILVER);
    const startedAt = new Date(Date.now() - 31 * DAY_MS);
    await t.db.update(subscriptions).set({ startedAt }).where(eq(subscriptions.id, paid.id));
    expect(await refusal(refund(late.member.id))).toEqual({
      status: 409,
      message: `The money-back guarantee covers the first 30 days: this subscription started on ${startedAt.toISOString().slice(0, 10)}, 31 days ago.`,
    });

    const returning = await t.asMember('free');
    const earlier = await stripe.subscribe(returning, SILVER);
    await t.db
      .update(subscriptions)
      .set({ status: 'canceled', startedAt: new Date(Date.now() - 90 * DAY_MS) })
      .where(eq(subscriptions.id, earlier.id));
    stripe.fake.updateSubscriptionState(earlier.id, { status: 'canceled' });
    await stripe.subscribe(returning, { tier: 'gold', period: 'monthly' });
    expect(await refusal(refund(returning.member.id))).toEqual({
      status: 409,
      message: 'The 30-day money-back guarantee is for first-time subscribers: this member has subscribed before.',
    });
  });
});
