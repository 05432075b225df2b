import { useEffect } from 'react';
import type { Tier } from '../../common/tiers.ts';
import { pruneDownloadsForViewer } from './offline-downloads.ts';

/**
 * What a signed-in member's device keeps in step on every page (app/root.tsx loads this for
 * members only, so a visitor's pages never download it): saved downloads their plan no longer
 * includes go, and until they choose a time zone on /account, their browser's is theirs.
 */
export default function MemberUpkeep({ tier, knowsZone }: { tier: Tier; knowsZone: boolean }) {
  useEffect(() => {
    void pruneDownloadsForViewer(tier);
  }, [tier]);
  useEffect(() => {
    if (knowsZone) return;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    void fetch('/api/account/time-zone', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ time_zone: zone }),
    }).catch(() => {});
  }, [knowsZone]);
  return null;
}
