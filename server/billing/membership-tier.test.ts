import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_STATUSES } from '../../common/billing.contract.ts';
import { ACCESS_STATUSES, effectiveTier } from './membership-tier.ts';

describe('effectiveTier', () => {
  it('is the higher of the complimentary tier and what a live subscription gives', () => {
    expect(effectiveTier(null, [])).toBe('free');
    expect(effectiveTier('bronze', [])).toBe('bronze');
    expect(effectiveTier('bronze', [{ status: 'active', tier: 'gold' }])).toBe('gold');
    expect(effectiveTier('gold', [{ status: 'active', tier: 'silver' }])).toBe('gold');
  });

  it('counts trialing and past due subscriptions, and nothing that has stopped or never started', () => {
    expect(effectiveTier(null, [{ status: 'trialing', tier: 'bronze' }])).toBe('bronze');
    expect(effectiveTier(null, [{ status: 'past_due', tier: 'silver' }])).toBe('silver');
    for (const status of ['canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused'] as const) {
      expect(effectiveTier(null, [{ status, tier: 'gold' }])).toBe('free');
    }
    expect(effectiveTier(null, [{ status: 'active', tier: null }])).toBe('free');
    expect(
      effectiveTier(null, [
        { status: 'canceled', tier: 'gold' },
        { status: 'active', tier: 'bronze' },
      ]),
    ).toBe('bronze');
  });
});

describe('ACCESS_STATUSES', () => {
  it('are exactly the statuses in which a subscription gives its tier (what the daily tier check looks for)', () => {
    for (const status of SUBSCRIPTION_STATUSES)
      expect(ACCESS_STATUSES.includes(status), status).toBe(effectiveTier(null, [{ status, tier: 'gold' }]) === 'gold');
  });
});
