import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../common/limits.ts';
import type { Viewer } from '../../common/viewer.ts';
import { members, subscriptions } from '../../db/schema.ts';
import { expectRefusedToEveryoneBut, lastAuditEntry, refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';
import { uniqueEmail } from '../../tests/helpers/test-app.ts';
import { INVALID_CURSOR } from '../lists/keyset.ts';

// The owners' view of the members: search, export, one member's record, the overview and tiers given
// by staff. Called in process; the HTTP contract is tests/api/admin.test.ts and staff-roles.test.ts.

const t = serviceTestApp();
let owner: Viewer;
beforeAll(async () => {
  owner = await t.asStaff('owner');
});

const service = () => t.app.services.members;
const NOBODY = '00000000-0000-4000-8000-000000000000';
const NOT_FOUND = { status: 404, message: 'Member not found' };
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile Safari/604.1';
const stored = async (memberId: string) => (await t.db.select().from(members).where(eq(members.id, memberId)))[0]!;
/** Members put straight into the table in one statement (so they join at the same moment), with no password to hash. */
const join = (names: string[], tag: string) =>
  t.db
    .insert(members)
    .values(names.map((name) => ({ name, email: uniqueEmail(tag), passwordHash: 'none' })))
    .returning();

describe('members, for owners', () => {
  it('are for owners only: visitors 401, members 403, editors 403, and nothing changes', async () => {
    const member = await t.loginAs('bronze');
    const calls = (viewer: Viewer) => [
      () => service().detail(viewer, member.memberId),
      () => service().overview(viewer),
      () => service().search(viewer, {}),
      () => service().exportCsv(viewer, undefined)[Symbol.asyncIterator]().next(),
      () => service().setTier(viewer, member.memberId, 'gold'),
    ];
    await expectRefusedToEveryoneBut('owners', t, calls);
    expect(await stored(member.memberId)).toMatchObject({ membershipTier: 'bronze', complimentaryTier: 'bronze' });
  });

  it('get a complimentary tier from an owner, recorded, which never lowers the tier they pay for', async () => {
    const member = await t.loginAs('free');
    expect(await service().setTier(owner, member.memberId, 'silver')).toEqual({
      success: true,
      id: member.memberId,
      membership_tier: 'silver',
    });
    expect(await stored(member.memberId)).toMatchObject({ membershipTier: 'silver', complimentaryTier: 'silver' });
    expect(await lastAuditEntry(t, { action: 'member.tier', target: member.email })).toMatchObject({
      actorEmail: owner.staff!.email,
      oldValue: 'free',
      newValue: 'silver',
    });
    expect((await service().setTier(owner, member.memberId, 'free')).membership_tier).toBe('free');
    expect(await stored(member.memberId)).toMatchObject({ membershipTier: 'free', complimentaryTier: null });

    const payer = await t.loginAs('free');
    await t.db.insert(subscriptions).values({
      id: `sub_${randomBytes(6).toString('hex')}`,
      memberId: payer.memberId,
      customerId: 'cus_test',
      status: 'active',
      tier: 'gold',
      period: 'monthly',
      priceId: 'price_gold_monthly',
      amountCents: 9900,
      currency: 'usd',
      currentPeriodEnd: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000),
      startedAt: new Date(),
    });
    expect((await service().setTier(owner, payer.memberId, 'bronze')).membership_tier).toBe('gold');
    expect((await service().setTier(owner, payer.memberId, 'free')).membership_tier).toBe('gold');
    expect(await refusal(service().setTier(owner, NOBODY, 'gold'))).toEqual(NOT_FOUND);
  });

  it('are found by any part of a name or email in any case, newest first, a page at a time', async () => {
    const tag = `pager${randomBytes(3).toString('hex')}`;
    const together = await join(
      Array.from({ length: PAGE_SIZE.staffList + 5 }, (_, index) => `Agent ${index} ${tag}`),
      'pager',
    );
    const [byEmail] = await join(['Someone Else'], tag);
    await join(['Not a match'], 'other');
    const first = await service().search(owner, { search: tag.toUpperCase() });
    expect(first.items[0]!.id).toBe(byEmail!.id);
    expect(first.items).toHaveLength(PAGE_SIZE.staffList);
    const second = await service().search(owner, { search: tag.toUpperCase(), before: first.next_cursor! });
    expect(second.next_cursor).toBeNull();
    const ids = [...first.items, ...second.items].map((row) => row.id);
    expect(ids.sort()).toEqual([...together, byEmail!].map((row) => row.id).sort());
    expect(await refusal(service().search(owner, { before: 'not-a-cursor' }))).toEqual({ status: 400, message: INVALID_CURSOR });
  });

  it('are exported as CSV, every match, with cells a spreadsheet never runs', async () => {
    const tag = `export${randomBytes(3).toString('hex')}`;
    const [formula, quoted] = await join([`=HYPERLINK("http://evil.example") ${tag}`, `Pat "The Closer" Lee ${tag}`], 'export');
    let csv = '';
    for await (const chunk of service().exportCsv(owner, tag)) csv += chunk;
    const lines = csv.split('\r\n');
    const joined = formula!.createdAt.toISOString().slice(0, 10);
    expect(lines).toEqual([
      'Name,Email,Tier,Joined',
      expect.stringMatching(/^"(Pat|'=HYPERLINK)/),
      expect.stringMatching(/^"(Pat|'=HYPERLINK)/),
      '',
    ]);
    expect(lines).toContain(`"'=HYPERLINK(""http://evil.example"") ${tag}","${formula!.email}","free","${joined}"`);
    expect(lines).toContain(`"Pat ""The Closer"" Lee ${tag}","${quoted!.email}","free","${joined}"`);
  });

  it("show one member's record: tier, sign-ins newest first, and the changes staff made", async () => {
    const member = await t.loginAs('bronze');
    const fromPhone = { member: null, staff: null, client: { address: '10.60.0.1', userAgent: IPHONE } };
    const phone = await t.app.services.auth.signIn(fromPhone, { email: member.email, password: member.password });
    const phoneSession = (await t.app.sessions.resolve(phone.token))!.sessionId;
    await t.app.sessions.revoke(phoneSession);
    await service().setTier(owner, member.memberId, 'gold');
    const detail = await service().detail(owner, member.memberId);
    expect(detail.member).toMatchObject({
      id: member.memberId,
      email: member.email,
      membership_tier: 'gold',
      complimentary_tier: 'gold',
      subscription: null,
    });
    expect(detail.sign_ins).toEqual([
      expect.objectContaining({ device: 'Safari on iOS', address: '10.60.0.1', active: false }),
      expect.objectContaining({ device: 'Unknown device', address: '', active: true }),
    ]);
    expect(detail.activity).toEqual([
      expect.objectContaining({ action: 'member.tier', actor_email: owner.staff!.email, new_value: 'gold' }),
    ]);
    expect(await refusal(service().detail(owner, NOBODY))).toEqual(NOT_FOUND);
  });

  it('are counted per tier, and per week of signing up over the last 12 weeks', async () => {
    const before = await service().overview(owner);
    await t.loginAs('gold');
    await t.loginAs('free');
    const after = await service().overview(owner);
    expect(after.members_by_tier).toEqual({
      ...before.members_by_tier,
      gold: before.members_by_tier.gold + 1,
      free: before.members_by_tier.free + 1,
    });
    expect(after.signups_by_week).toHaveLength(12);
    expect(after.enrolments_by_week).toHaveLength(12);
    expect(after.signups_by_week.at(-1)!.count).toBe(before.signups_by_week.at(-1)!.count + 2);
    const weeks = after.signups_by_week.map((row) => row.week);
    expect(weeks).toEqual([...weeks].sort());
    for (const week of weeks) expect(new Date(`${week}T00:00:00Z`).getUTCDay()).toBe(1);
  });
});
