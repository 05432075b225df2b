import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Retention, Revenue } from '../../common/insights.contract.ts';
import { members, memberActiveWeeks, mrrChanges, offers, sessions, subscriptions, teams } from '../../db/schema.ts';
import type { MonthBounds } from '../../server/insights/insights.repository.ts';
import { monthsEndingNow, weeksEndingNow } from '../../server/insights/insights.service.ts';
import { injectAs, type ViewerHeaders } from '../helpers/inject-as.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// The Insights tab's retention cohorts, churn per tier and revenue per offer and from team seats
// (issue: 'Run the business by its numbers', part 1), against three months whose answer is known;
// and its weeks and months in the business's time zone (New York).

let t: TestApp;
let owner: ViewerHeaders;
let editor: ViewerHeaders;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
});
afterAll(() => t.close());

const request = injectAs(() => t);
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

type Plan = { tier: 'bronze' | 'silver' | 'gold'; cents: number };
const BRONZE: Plan = { tier: 'bronze', cents: 1900 };
const SILVER: Plan = { tier: 'silver', cents: 4900 };
const GOLD: Plan = { tier: 'gold', cents: 9900 };

const subscribe = (id: string, memberId: string, plan: Plan, when: Date, offerId: string | null = null) =>
  t.db.insert(subscriptions).values({
    id,
    memberId,
    customerId: `cus_${id}`,
    status: 'active',
    tier: plan.tier,
    period: 'monthly',
    priceId: `price_${plan.tier}_monthly`,
    amountCents: plan.cents,
    currency: 'usd',
    currentPeriodEnd: new Date(when.getTime() + 30 * 24 * HOUR),
    startedAt: when,
    updatedAt: when,
    offerId,
  });
const change = (id: string, values: Partial<typeof subscriptions.$inferInsert>, when: Date) =>
  t.db
    .update(subscriptions)
    .set({ ...values, updatedAt: when })
    .where(eq(subscriptions.id, id));
const offer = async (code: string, name: string) => {
  const [row] = await t.db
    .insert(offers)
    .values({
      code,
      name,
      percentOff: 20,
      duration: 'forever',
      plans: ['bronze_monthly', 'silver_monthly', 'gold_monthly'],
      stripeCouponId: `coupon_${code}`,
      stripePromotionCodeId: `promo_${code}`,
      createdBy: 'owner@example.com',
    })
    .returning();
  return row!.id;
};

describe('retention, churn per tier and revenue by source', () => {
  it('follow a cohort month by month, churn per tier, and the revenue from each offer and from team seats', async () => {
    const [twoAgo, lastMonth, thisMonth] = monthsEndingNow(3) as [MonthBounds, MonthBounds, MonthBounds];
    const at = (month: { starts: Date }, hours: number) => new Date(month.starts.getTime() + hours * HOUR);
    // This month's changes a few minutes into it: they have happened, whenever the test runs.
    const early = (minutes: number) => new Date(Math.min(thisMonth.starts.getTime() + minutes * MINUTE, Date.now() - 1000));
    const logins = [];
    for (let index = 0; index < 8; index++) logins.push(await t.loginAs('free'));
    const [ann, ben, cal, dot, eve, fay, gus, hal] = logins as [
      MemberLogin,
      MemberLogin,
      MemberLogin,
      MemberLogin,
      MemberLogin,
      MemberLogin,
      MemberLogin,
      MemberLogin,
    ];
    // Ann, Ben, Cal and Dot joined two months ago; the others long before.
    const ids = (list: MemberLogin[]) => list.map((member) => member.memberId);
    await t.db
      .update(members)
      .set({ createdAt: at(twoAgo, 10) })
      .where(inArray(members.id, ids([ann, ben, cal, dot])));
    await t.db
      .update(members)
      .set({ createdAt: new Date(twoAgo.starts.getTime() - 700 * 24 * HOUR) })
      .where(inArray(members.id, ids([eve, fay, gus, hal])));

    const spring = await offer('SPRING', 'Spring sale');
    const vip = await offer('GOLDVIP', 'Gold for brokers');

    // Two months ago: Ann on Silver with SPRING, Ben on Bronze; Eve on Bronze with SPRING, Fay on Silver, Gus on Gold.
    await subscribe('sub_ann', ann.memberId, SILVER, at(twoAgo, 20), spring);
    await subscribe('sub_ben', ben.memberId, BRONZE, at(twoAgo, 30));
    await subscribe('sub_eve', eve.memberId, BRONZE, at(twoAgo, 40), spring);
    await subscribe('sub_fay', fay.memberId, SILVER, at(twoAgo, 50));
    await subscribe('sub_gus', gus.memberId, GOLD, at(twoAgo, 60));
    // Last month: Cal takes Gold with GOLDVIP; Gus cancels; Hal's brokerage buys 5 Silver seats at $39.
    await subscribe('sub_cal', cal.memberId, GOLD, at(lastMonth, 20), vip);
    await change('sub_gus', { status: 'canceled', endedAt: at(lastMonth, 30) }, at(lastMonth, 30));
    const [team] = await t.db
      .insert(teams)
      .values({
        name: 'Hal Realty',
        brokerId: hal.memberId,
        tier: 'silver',
        period: 'monthly',
        seats: 5,
        pricePerSeatCents: 3900,
        status: 'active',
      })
      .returning();
    // A team keeps no time of its own: the history dates its change when the mirror made it (now); moved to last month here.
    await t.db
      .update(mrrChanges)
      .set({ changedAt: at(lastMonth, 40) })
      .where(eq(mrrChanges.teamId, team!.id));
    // This month: Ben cancels, Fay moves down to Bronze, the team takes a sixth seat.
    await change('sub_ben', { status: 'canceled', endedAt: early(1) }, early(1));
    await change('sub_fay', { tier: 'bronze', amountCents: 1900, priceId: 'price_bronze_monthly' }, early(2));
    await t.db.update(teams).set({ seats: 6 }).where(eq(teams.id, team!.id));

    // Weeks of use: all four in the month they joined, Ann and Cal last month, Ann alone this month.
    const cohort = ids([ann, ben, cal, dot]);
    await t.db.delete(memberActiveWeeks).where(inArray(memberActiveWeeks.memberId, cohort));
    const mondayIn = (month: string) => {
      const first = new Date(`${month}-01T00:00:00Z`);
      first.setUTCDate(1 + ((8 - first.getUTCDay()) % 7));
      return first.toISOString().slice(0, 10);
    };
    await t.db
      .insert(memberActiveWeeks)
      .values([
        ...cohort.map((memberId) => ({ week: mondayIn(twoAgo.month), memberId })),
        { week: mondayIn(lastMonth.month), memberId: ann.memberId },
        { week: mondayIn(lastMonth.month), memberId: cal.memberId },
        { week: mondayIn(thisMonth.month), memberId: ann.memberId },
      ]);

    // Revenue: churn per tier, and where each month's recurring revenue comes from.
    const answer = await request('GET', '/api/admin/insights/revenue?months=3', owner);
    expect(answer.statusCode, answer.body).toBe(200);
    const revenue = answer.json() as Revenue;
    const tiers = (bronze: [number, number], silver: [number, number], gold: [number, number]) => ({
      bronze: { paying_at_start: bronze[0], churned: bronze[1] },
      silver: { paying_at_start: silver[0], churned: silver[1] },
      gold: { paying_at_start: gold[0], churned: gold[1] },
    });
    expect(revenue.churn).toEqual([
      { month: twoAgo.month, ...tiers([0, 0], [0, 0], [0, 0]) },
      { month: lastMonth.month, ...tiers([2, 0], [2, 0], [1, 1]) },
      // Ben left Bronze; Fay moving down from Silver is not churn.
      { month: thisMonth.month, ...tiers([2, 1], [2, 0], [1, 0]) },
    ]);
    const springOffer = (cents: number, count: number) => ({
      offer_id: spring,
      code: 'SPRING',
      name: 'Spring sale',
      mrr_cents: cents,
      subscriptions: count,
    });
    const vipOffer = { offer_id: vip, code: 'GOLDVIP', name: 'Gold for brokers', mrr_cents: 9900, subscriptions: 1 };
    expect(revenue.sources).toEqual([
      { month: twoAgo.month, no_offer_cents: 1900 + 4900 + 9900, offers: [springOffer(6800, 2)], team_seats_cents: 0, teams: 0 },
      { month: lastMonth.month, no_offer_cents: 1900 + 4900, offers: [vipOffer, springOffer(6800, 2)], team_seats_cents: 19500, teams: 1 },
      { month: thisMonth.month, no_offer_cents: 1900, offers: [vipOffer, springOffer(6800, 2)], team_seats_cents: 23400, teams: 1 },
    ]);
    // The team's seats are in the recurring revenue, not among the paying plans per tier.
    expect(revenue.mrr.at(-1)).toEqual({
      month: thisMonth.month,
      mrr_cents: 6800 + 9900 + 1900 + 23400,
      paying: { bronze: 2, silver: 1, gold: 1 },
    });
    const movedLast = revenue.movements[1]!;
    expect(movedLast.new_cents).toBe(9900 + 19500);

    const churnCsv = await request('GET', '/api/admin/insights/revenue/churn.csv?months=3', owner);
    expect(churnCsv.statusCode).toBe(200);
    expect(churnCsv.body.split('\r\n').slice(0, 2)).toEqual([
      '"month","tier","paying at the start","churned","churn %"',
      `"${twoAgo.month}","bronze","0","0",""`,
    ]);
    expect(churnCsv.body).toContain(`"${thisMonth.month}","bronze","2","1","50"\r\n`);
    const sourcesCsv = await request('GET', '/api/admin/insights/revenue/sources.csv?months=3', owner);
    expect(sourcesCsv.body).toContain(`"${thisMonth.month}","Gold for brokers","GOLDVIP","99.00","1"\r\n`);
    expect(sourcesCsv.body).toContain(`"${thisMonth.month}","team seats","","234.00","1"\r\n`);

    // Retention: of the four who joined two months ago, 2, 3 then 2 paying; 4, 2 then 1 active.
    const retention = (await request('GET', '/api/admin/insights/retention?months=3', owner)).json() as Retention;
    expect(retention.paying_shown).toBe(true);
    expect(retention.cohorts).toEqual([
      {
        month: twoAgo.month,
        members: 4,
        after: [
          { month: twoAgo.month, paying: 2, active: 4 },
          { month: lastMonth.month, paying: 3, active: 2 },
          { month: thisMonth.month, paying: 2, active: 1 },
        ],
      },
      {
        month: lastMonth.month,
        members: 0,
        after: [
          { month: lastMonth.month, paying: 0, active: 0 },
          { month: thisMonth.month, paying: 0, active: 0 },
        ],
      },
      { month: thisMonth.month, members: 0, after: [{ month: thisMonth.month, paying: 0, active: 0 }] },
    ]);
    const csv = await request('GET', '/api/admin/insights/retention.csv?months=3', owner);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\r\n').slice(0, 3)).toEqual([
      '"joined","members","month","months after joining","active","active %","paying","paying %"',
      `"${twoAgo.month}","4","${twoAgo.month}","0","4","100","2","50"`,
      `"${twoAgo.month}","4","${lastMonth.month}","1","2","50","3","75"`,
    ]);

    // An editor sees who stayed active, never who paid.
    const asEditor = await request('GET', '/api/admin/insights/retention?months=3', editor);
    expect(asEditor.statusCode).toBe(200);
    const editorView = asEditor.json() as Retention;
    expect(editorView.paying_shown).toBe(false);
    expect(editorView.cohorts[0]!.after).toEqual([
      { month: twoAgo.month, paying: null, active: 4 },
      { month: lastMonth.month, paying: null, active: 2 },
      { month: thisMonth.month, paying: null, active: 1 },
    ]);
    const editorCsv = await request('GET', '/api/admin/insights/retention.csv?months=3', editor);
    expect(editorCsv.body.split('\r\n')[0]).toBe('"joined","members","month","months after joining","active","active %"');
    expect(editorCsv.body).not.toContain('paying');
  });

  it('is staff’s, bounded, and the revenue figures stay the owners’', async () => {
    const member = await t.loginAs('gold');
    expect((await request('GET', '/api/admin/insights/retention', member.headers)).statusCode).toBe(403);
    expect((await request('GET', '/api/admin/insights/retention.csv')).statusCode).toBe(401);
    expect((await request('GET', '/api/admin/insights/retention?months=25', owner)).json().detail).toBe('Show at most 24 months');
    expect((await request('GET', '/api/admin/insights/revenue/churn.csv', editor)).statusCode).toBe(403);
    expect((await request('GET', '/api/admin/insights/revenue/sources.csv', editor)).statusCode).toBe(403);
    // Twenty-four months shown: the cohorts are the last twelve.
    const long = (await request('GET', '/api/admin/insights/retention?months=24', owner)).json() as Retention;
    expect(long.months).toHaveLength(24);
    expect(long.cohorts.map((cohort) => cohort.month)).toEqual(long.months.slice(-12));
  });
});

describe('the business’s time zone', () => {
  it('makes weeks and months New York’s: Sunday evening there is the week before, the last evening of a month that month', async () => {
    // 04:00 UTC on Monday 3 March 2025 is 11 pm on Sunday 2 March in New York (EST).
    const sundayNight = new Date('2025-03-03T04:00:00Z');
    expect(weeksEndingNow(2, sundayNight)).toEqual(['2025-02-17', '2025-02-24']);
    // 03:00 UTC on 1 March is 10 pm on 28 February there.
    expect(monthsEndingNow(1, new Date('2025-03-01T03:00:00Z'))[0]!.month).toBe('2025-02');
    // March begins in winter time and ends in summer time.
    expect(monthsEndingNow(1, sundayNight)[0]).toEqual({
      month: '2025-03',
      starts: new Date('2025-03-01T05:00:00Z'),
      ends: new Date('2025-04-01T04:00:00Z'),
    });

    // The database notes a member's week the same way.
    const member = await t.loginAs('free');
    await t.db.update(sessions).set({ lastSeenAt: sundayNight }).where(eq(sessions.memberId, member.memberId));
    const weeks = await t.db
      .select({ week: memberActiveWeeks.week })
      .from(memberActiveWeeks)
      .where(sql`${memberActiveWeeks.memberId} = ${member.memberId} and ${memberActiveWeeks.week} < '2025-06-01'`);
    expect(weeks).toEqual([{ week: '2025-02-24' }]);
  });
});
