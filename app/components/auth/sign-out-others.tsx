import { useState } from 'react';
import { toast } from 'sonner';
import { postJson } from '../../lib/api-client.ts';

/** Ends every other session of the member (a lost phone, a shared computer); this one stays. */
export function SignOutOtherDevices() {
  const [busy, setBusy] = useState(false);
  async function signOutOthers() {
    setBusy(true);
    try {
      const result = await postJson<{ ended: number }>('/api/auth/sessions/revoke-others');
      if (!result.ok) throw new Error(result.data.detail);
      toast.success(result.data.ended === 1 ? 'Signed out of 1 other device' : `Signed out of ${result.data.ended} other devices`);
    } catch {
      toast.error('Could not sign out your other devices. Please try again.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <button
      type="button"
      onClick={signOutOthers}
      disabled={busy}
      className="text-sm font-semibold text-brand-800 underline hover:text-brand-600 disabled:opacity-60"
    >
      Sign out of other devices
    </button>
  );
}
