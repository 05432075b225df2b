import { z } from 'zod';
import { TIERS } from './tier-order.ts';

// SPEC 4 / 9: the membership tier as the API takes it; the order and labels are in tier-order.ts.
export { higherTier, TIER_LABEL, tierReaches, TIERS } from './tier-order.ts';
export const Tier = /* @__PURE__ */ z.enum(TIERS, { error: 'Tier must be free, bronze, silver or gold' });
export type Tier = z.infer<typeof Tier>;
