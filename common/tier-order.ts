// SPEC 4 / 9: membership tiers are ordered free < bronze < silver < gold (rank 0 to 3). Apart from
// the tier's schema (tiers.ts), so a page that only shows or compares tiers loads no zod.
export const TIERS = ['free', 'bronze', 'silver', 'gold'] as const;
export type Tier = (typeof TIERS)[number];

const TIER_RANK: Record<Tier, number> = { free: 0, bronze: 1, silver: 2, gold: 3 };

export const TIER_LABEL: Record<Tier, string> = {
  free: 'Free',
  bronze: 'Bronze',
  silver: 'Silver',
  gold: 'Gold',
};

/** Whether `tier` is at or above `floor` in the order of tiers (who may do what is decided in policies.ts). */
export const tierReaches = (tier: Tier, floor: Tier) => TIER_RANK[tier] >= TIER_RANK[floor];

/** The higher of two tiers. */
export const higherTier = (a: Tier, b: Tier) => (tierReaches(a, b) ? a : b);
