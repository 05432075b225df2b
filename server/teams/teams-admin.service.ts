import { requireStaffArea } from '../../common/policies.ts';
import { BILLING_PERIODS, PAID_TIERS } from '../../common/pricing.ts';
import type { TeamsAdminService } from '../../common/teams.contract.ts';
import type { DataAccess } from '../repositories.ts';
import { teamPricesOf } from './teams.service.ts';

// Owners set what a seat of a team plan costs, per tier and period; new teams and new seats are
// charged at it (a team keeps the price it bought at).

export function createTeamsAdminService(data: DataAccess): TeamsAdminService {
  return {
    async prices(viewer) {
      requireStaffArea(viewer, 'billing');
      return teamPricesOf(data);
    },

    async setPrices(viewer, input) {
      const staff = requireStaffArea(viewer, 'billing');
      const before = await teamPricesOf(data);
      await data.transaction(async (tx) => {
        for (const tier of PAID_TIERS)
          for (const period of BILLING_PERIODS) await tx.teams.setPrice(tier, period, input[`${tier}_${period}`], staff.email);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'billing.team-prices',
          target: 'team seat prices',
          oldValue: before,
          newValue: input,
        });
      });
      return teamPricesOf(data);
    },
  };
}
