import { z } from 'zod';

// SPEC 4 / 9: membership tiers are ordered free < bronze < silver < gold (rank 0 to 3).
export const TIERS = ['free', 'bronze', 'silver', 'gold'] as const;
export const Tier = z.enum(TIERS, { error: 'Tier must be free, bronze, silver or gold' });
export type Tier = z.infer<typeof Tier>;

const TIER_RANK: Record<Tier, number> = { free: 0, bronze: 1, silver: 2, gold: 3 };

export const TIER_LABEL: Record<Tier, string> = {
  free: 'Free',
  bronze: 'Bronze',
  silver: 'Silver',
  gold: 'Gold',
};

/** A member may use what is at or below their own tier; a visitor (null) has no tier at all. */
export function isEntitled(memberTier: Tier | null | undefined, requiredTier: Tier): boolean {
  if (!memberTier) return false;
  return TIER_RANK[memberTier] >= TIER_RANK[requiredTier];
}

/** SPEC 9: downloads for offline use come with Bronze, Silver and Gold. */
export const tierSavesOffline = (tier: Tier | null | undefined) => isEntitled(tier, 'bronze');
