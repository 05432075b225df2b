import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Engagement, Retention } from '../../common/insights.contract.ts';
import { CACHE_BOUNDS } from '../../common/limits.ts';
import type { Viewer } from '../../common/viewer.ts';
import { subscriptions } from '../../db/schema.ts';
import { createInsightsService } from '../../server/insights/insights.service.ts';
import { createDataAccess } from '../../server/repositories.ts';
import { injectAs, type ViewerHeaders } from '../helpers/inject-as.ts';
import { silverSubscription } from '../helpers/subscription-row.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// The Insights figures are read once and shared for a minute (CACHE_BOUNDS.insightFigures): owners
// loading the tab at once share one reading, each viewer still gets only what their role may read,
// and a reading that failed is not kept. The service is also built here on the test's database with
// a clock the tests move, as the app's own cannot be moved.

let t: TestApp;
let owner: ViewerHeaders;
let editor: ViewerHeaders;
let ownerViewer: Viewer;
let editorViewer: Viewer;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
  ownerViewer = await t.asStaff('owner');
  editorViewer = await t.asStaff('editor');
});
afterAll(() => t.close());

const request = injectAs(() => t);
const KEPT_MS = CACHE_BOUNDS.insightFigures.maxAgeMs;

/** The Insights service on the test's database, with a clock the test moves. */
function insightsWithClock() {
  const data = createDataAccess(t.db);
  const clock = { at: Date.now() };
  const insights = createInsightsService(data, { now: () => new Date(clock.at) });
  return { data, clock, insights };
}

/** A member who joined now and pays for Silver since a minute ago. */
async function payingMember() {
  const member = await t.loginAs('free');
  const since = new Date(Date.now() - 60_000);
  await t.db
    .insert(subscriptions)
    .values(silverSubscription(`sub_${member.memberId}`, member.memberId, { startedAt: since, updatedAt: since }));
  return member;
}

describe('the Insights figures kept for a minute', () => {
  it('are read once for staff loading the tab at once, the CSVs included, and each period apart', async () => {
    const answers = await Promise.all(Array.from({ length: 32 }, () => request('GET', '/api/admin/insights/engagement?weeks=3', owner)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    const { members } = (answers[0]!.json() as Engagement).inactive;

    await t.loginAs('free');
    // Within the minute, the figure is the one read: for an editor too, and in its CSV...
    const again = await request('GET', '/api/admin/insights/engagement?weeks=3', editor);
    expect((again.json() as Engagement).inactive.members).toBe(members);
    const csv = await request('GET', '/api/admin/insights/engagement/inactive.csv?weeks=3', owner);
    expect(csv.body.split('\r\n')[1]).toMatch(new RegExp(`^"${members}",`));
    // ...while another period is a figure of its own, read now.
    const longer = await request('GET', '/api/admin/insights/engagement?weeks=4', owner);
    expect((longer.json() as Engagement).inactive.members).toBe(members + 1);
  });

  it('share one reading between callers asking at once, and read again once the minute is up', async () => {
    const { data, clock, insights } = insightsWithClock();
    const reads = vi.spyOn(data.insights, 'inactive');
    const [first, second] = await Promise.all([
      insights.engagement(ownerViewer, { weeks: 2 }),
      insights.engagement(editorViewer, { weeks: 2 }),
    ]);
    expect(second).toBe(first);
    expect(reads).toHaveBeenCalledTimes(1);

    await t.loginAs('free');
    clock.at += KEPT_MS - 1;
    expect((await insights.engagement(ownerViewer, { weeks: 2 })).inactive.members).toBe(first.inactive.members);
    expect((await insights.engagementCsv(editorViewer, 'inactive', 2)).split('\r\n')[1]).toMatch(
      new RegExp(`^"${first.inactive.members}",`),
    );
    expect(reads).toHaveBeenCalledTimes(1);

    clock.at += 1;
    expect((await insights.engagement(ownerViewer, { weeks: 2 })).inactive.members).toBe(first.inactive.members + 1);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('show an editor no paying share after an owner, and an owner theirs after an editor', async () => {
    await payingMember();
    const retention = async (months: number, viewer: ViewerHeaders) => {
      const answer = await request('GET', `/api/admin/insights/retention?months=${months}`, viewer);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json() as Retention;
    };
    const thisMonth = (figures: Retention) => figures.cohorts.at(-1)!.after.at(-1)!;

    const asOwner = await retention(2, owner);
    expect(asOwner.paying_shown).toBe(true);
    expect(thisMonth(asOwner).paying).toBe(1);
    const editorAfter = await retention(2, editor);
    expect(editorAfter.paying_shown).toBe(false);
    expect(editorAfter.cohorts.flatMap((cohort) => cohort.after.map((row) => row.paying))).toEqual([null, null, null]);
    expect(thisMonth(editorAfter).active).toBe(thisMonth(asOwner).active);
    expect((await request('GET', '/api/admin/insights/retention.csv?months=2', editor)).body).not.toContain('paying');

    const asEditor = await retention(3, editor);
    expect(asEditor.paying_shown).toBe(false);
    const ownerAfter = await retention(3, owner);
    expect(ownerAfter.paying_shown).toBe(true);
    expect(thisMonth(ownerAfter).paying).toBe(1);
    expect((await request('GET', '/api/admin/insights/retention.csv?months=3', owner)).body.split('\r\n')[0]).toContain('"paying"');
  });

  it('are refused to whoever may not read them, though another viewer’s reading is kept', async () => {
    const { insights } = insightsWithClock();
    await insights.revenue(ownerViewer, { months: 2 });
    await insights.engagement(ownerViewer, { weeks: 2 });
    await expect(insights.revenue(editorViewer, { months: 2 })).rejects.toMatchObject({ status: 403 });
    await expect(insights.revenueCsv(editorViewer, 'mrr', 2)).rejects.toMatchObject({ status: 403 });
    const member = await t.asMember('gold');
    await expect(insights.engagement(member, { weeks: 2 })).rejects.toMatchObject({ status: 403 });
    await expect(insights.retention(t.asVisitor(), { months: 2 })).rejects.toMatchObject({ status: 401 });
  });

  it('forget a reading that failed: the next caller reads again', async () => {
    const { insights } = insightsWithClock();
    // The revenue history away for a moment: the database refuses the figure's statements.
    await t.db.execute(sql`alter table mrr_changes rename to mrr_changes_away`);
    try {
      await expect(insights.revenue(ownerViewer, { months: 2 })).rejects.toThrow();
    } finally {
      await t.db.execute(sql`alter table mrr_changes_away rename to mrr_changes`);
    }
    // The same instant: a kept failure would be answered again.
    const revenue = await insights.revenue(ownerViewer, { months: 2 });
    expect(revenue.months).toHaveLength(2);
  });
});
