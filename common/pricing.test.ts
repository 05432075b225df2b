import { describe, expect, it } from 'vitest';
import { formatPrice, PRICING_PLANS, yearlySavingDollars, yearlySavingPercent } from './pricing.ts';

describe('pricing', () => {
  it('holds the spec prices', () => {
    expect(PRICING_PLANS.map((plan) => [plan.name, plan.monthlyPrice, plan.yearlyPrice])).toEqual([
      ['Bronze', 29, 290],
      ['Silver', 79, 790],
      ['Gold', 149, 1490],
    ]);
    expect(PRICING_PLANS.filter((plan) => plan.popular).map((plan) => plan.name)).toEqual(['Silver']);
  });

  it('computes the yearly saving as 12 x monthly minus yearly', () => {
    expect(PRICING_PLANS.map(yearlySavingDollars)).toEqual([58, 158, 298]);
    expect(PRICING_PLANS.map(yearlySavingPercent)).toEqual([16.7, 16.7, 16.7]);
  });

  it('formats dollars with thousands separators', () => {
    expect(formatPrice(1490)).toBe('$1,490');
  });
});
