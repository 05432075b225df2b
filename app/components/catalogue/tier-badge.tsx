import { TIER_LABEL, type Tier } from '../../../common/tiers.ts';

// SPEC 2 Member dashboard: free grey, bronze orange, silver cream, gold amber. Used for every tier badge.
const TIER_BADGE_CLASSES: Record<Tier, string> = {
  free: 'bg-gray-100 text-gray-700 ring-gray-300',
  bronze: 'bg-orange-100 text-orange-800 ring-orange-300',
  silver: 'bg-amber-50 text-stone-700 ring-stone-300',
  gold: 'bg-amber-100 text-amber-800 ring-amber-400',
};

export function TierBadge({ tier, className }: { tier: Tier; className?: string }) {
  return (
    <span
      data-tier={tier}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${TIER_BADGE_CLASSES[tier]} ${className ?? ''}`}
    >
      {TIER_LABEL[tier]}
    </span>
  );
}
