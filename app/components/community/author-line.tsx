import { showsTierBadge } from '../../../common/policies.ts';
import type { Tier } from '../../../common/tiers.ts';
import { formatDate } from '../../../common/format.ts';
import { TierBadge } from '../catalogue/tier-badge.tsx';

/** The author's initial, name, tier badge (Silver and Gold) and the date; 'edited' once changed. */
export function AuthorLine({ name, tier, date, edited }: { name: string; tier: Tier | null; date: string; edited?: boolean }) {
  return (
    <div className="flex items-center gap-3">
      <span className="grid h-10 w-10 shrink-0 place-items-center rounded-full bg-brand-800 font-bold text-gold-400" aria-hidden="true">
        {name.charAt(0)}
      </span>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-gray-900">
          {name}
          {showsTierBadge(tier) && <TierBadge tier={tier} />}
        </p>
        <p className="text-xs text-gray-500">
          {formatDate(date)}
          {edited && ' · edited'}
        </p>
      </div>
    </div>
  );
}
