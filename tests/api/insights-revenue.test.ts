import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Revenue } from '../../common/insights.contract.ts';
import { subscriptions } from '../../db/schema.ts';
import { monthsEndingNow } from '../../server/insights/insights.service.ts';
import { injectAs, type ViewerHeaders } from '../helpers/inject-as.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// The Insights tab's revenue half (issue: 'Run the business by its numbers', part 1), against three
// months whose answer is known: the billing mirror's subscriptions change as Stripe's events would
// change them, and the database keeps each change of revenue; the months' movements follow.

let t: TestApp;
let owner: ViewerHeaders;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
});
afterAll(() => t.close());

const request = injectAs(() => t);
const HOUR = 60 * 60 * 1000;

describe('the revenue figures', () => {
  it('give each month its recurring revenue, paying plans and movements, trials that paid and refunds', async () => {
    const [twoAgo, lastMonth, thisMonth] = monthsEndingNow(3);
    const at = (month: { starts: Date }, hours: number) => new Date(month.starts.getTime() + hours * HOUR);
    const [ann, ben, cat, dan, eve] = (await Promise.all(['free', 'free', 'free', 'free', 'free'].map(() => t.loginAs('free')))) as [
      MemberLogin,
      MemberLogin,
      MemberLogin,
      MemberLogin,
      MemberLogin,
    ];
    const subscribe = (
      id: string,
      memberId: string,
      plan: { tier: 'bronze' | 'silver' | 'gold'; period: 'monthly' | 'yearly'; cents: number },
      when: Date,
      status: 'active' | 'trialing' = 'active',
    ) =>
      t.db.insert(subscriptions).values({
        id,
        memberId,
        customerId: `cus_${id}`,
        status,
        tier: plan.tier,
        period: plan.period,
        priceId: `price_${plan.tier}_${plan.period}`,
        amountCents: plan.cents,
        currency: 'usd',
        currentPeriodEnd: new Date(when.getTime() + 30 * 24 * HOUR),
        startedAt: when,
        updatedAt: when,
        ...(status === 'trialing' && { trialEndsAt: new Date(when.getTime() + 14 * 24 * HOUR) }),
      });
    const change = (id: string, values: Partial<typeof subscriptions.$inferInsert>, when: Date) =>
      t.db
        .update(subscriptions)
        .set({ ...values, updatedAt: when })
        .where(eq(subscriptions.id, id));

    // Two months ago: Ann on Silver, Cat on Bronze.
    await subscribe('sub_ann', ann.memberId, { tier: 'silver', period: 'monthly', cents: 4900 }, at(twoAgo!, 100));
    await subscribe('sub_cat', cat.memberId, { tier: 'bronze', period: 'monthly', cents: 1900 }, at(twoAgo!, 120));
    // Last month: Ann moves up to Gold, Cat cancels, Ben takes Bronze for a year.
    await change('sub_ann', { tier: 'gold', amountCents: 9900, priceId: 'price_gold_monthly' }, at(lastMonth!, 50));
    await change('sub_cat', { status: 'canceled', endedAt: at(lastMonth!, 60) }, at(lastMonth!, 60));
    await subscribe('sub_ben', ben.memberId, { tier: 'bronze', period: 'yearly', cents: 22800 }, at(lastMonth!, 70));
    // This month: Cat comes back, Ann moves down to Silver, Dan's trial pays, Eve's does not (yet); Ben is refunded.
    await subscribe('sub_cat_again', cat.memberId, { tier: 'bronze', period: 'monthly', cents: 1900 }, at(thisMonth!, 1));
    await change('sub_ann', { tier: 'silver', amountCents: 4900, priceId: 'price_silver_monthly' }, at(thisMonth!, 2));
    await subscribe('sub_dan', dan.memberId, { tier: 'silver', period: 'monthly', cents: 4900 }, at(thisMonth!, 3), 'trialing');
    await change('sub_dan', { status: 'active' }, at(thisMonth!, 4));
    await subscribe('sub_eve', eve.memberId, { tier: 'gold', period: 'monthly', cents: 9900 }, at(thisMonth!, 5), 'trialing');
    await change('sub_ben', { refundedAt: at(thisMonth!, 6), refundedCents: 22800 }, at(thisMonth!, 6));

    const answer = await request('GET', '/api/admin/insights/revenue?months=3', owner);
    expect(answer.statusCode, answer.body).toBe(200);
    const figures = answer.json() as Revenue;
    expect(figures.months).toEqual([twoAgo!.month, lastMonth!.month, thisMonth!.month]);
    expect(figures.mrr).toEqual([
      { month: twoAgo!.month, mrr_cents: 6800, paying: { bronze: 1, silver: 1, gold: 0 } },
      { month: lastMonth!.month, mrr_cents: 11800, paying: { bronze: 1, silver: 0, gold: 1 } },
      { month: thisMonth!.month, mrr_cents: 13600, paying: { bronze: 2, silver: 2, gold: 0 } },
    ]);
    const moved = (month: string) => figures.movements.find((row) => row.month === month);
    expect(moved(twoAgo!.month)).toEqual({
      month: twoAgo!.month,
      new_cents: 6800,
      expansion_cents: 0,
      contraction_cents: 0,
      churned_cents: 0,
      reactivated_cents: 0,
      churned_members: 0,
    });
    expect(moved(lastMonth!.month)).toEqual({
      month: lastMonth!.month,
      new_cents: 1900,
      expansion_cents: 5000,
      contraction_cents: 0,
      churned_cents: 1900,
      reactivated_cents: 0,
      churned_members: 1,
    });
    expect(moved(thisMonth!.month)).toEqual({
      month: thisMonth!.month,
      new_cents: 4900,
      expansion_cents: 0,
      contraction_cents: 5000,
      churned_cents: 0,
      reactivated_cents: 1900,
      churned_members: 0,
    });
    expect(figures.trials.at(-1)).toEqual({ month: thisMonth!.month, started: 2, converted: 1 });
    expect(figures.refunds.at(-1)).toEqual({ month: thisMonth!.month, refunds: 1, refunded_cents: 22800 });

    const csv = await request('GET', '/api/admin/insights/revenue/movements.csv?months=3', owner);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[2]).toBe(`"${lastMonth!.month}","19.00","50.00","0.00","19.00","0.00","1"`);
  });

  it('is the owners’: an editor reads the engagement half only', async () => {
    const editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
    expect((await request('GET', '/api/admin/insights/revenue', editor)).statusCode).toBe(403);
    expect((await request('GET', '/api/admin/insights/engagement', editor)).statusCode).toBe(200);
    expect((await request('GET', '/api/admin/insights/revenue?months=25', owner)).json().detail).toBe('Show at most 24 months');
  });
});
