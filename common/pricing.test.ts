import { describe, expect, it } from 'vitest';
import { formatCents, formatPrice, PRICING_PLANS, yearlySavingDollars, yearlySavingPercent } from './pricing.ts';

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

  it('formats dollars with thousands separators, and cents only when there are some', () => {
    expect(formatPrice(1490)).toBe('$1,490');
    expect(formatPrice(29)).toBe('$29');
    expect(formatPrice(1234567.5)).toBe('$1,234,567.50');
    expect(formatCents(6320)).toBe('$63.20');
    expect(formatCents(63200)).toBe('$632');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(-2500)).toBe('-$25');
  });
});
