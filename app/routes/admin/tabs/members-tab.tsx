import { useEffect, useState } from 'react';
import { TIER_LABEL, TIERS, type Tier } from '../../../../common/tiers.ts';
import { postJson } from '../../../lib/api-client.ts';
import { adminInput, getJson } from './admin-ui.ts';

interface MemberRow {
  id: string;
  name: string;
  email: string;
  membership_tier: Tier;
  created_at: string;
}

export function MembersTab() {
  const [search, setSearch] = useState('');
  const [rows, setRows] = useState<MemberRow[]>([]);

  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      void getJson<MemberRow[]>(`/api/admin/members?search=${encodeURIComponent(search)}`).then((result) => {
        if (!cancelled && result) setRows(result);
      });
    }, 200);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [search]);

  async function changeTier(member: MemberRow, tier: Tier) {
    try {
      const result = await postJson(`/api/admin/members/${member.id}/tier`, { membership_tier: tier });
      if (!result.ok) throw new Error(result.data.detail);
      setRows((list) => list.map((row) => (row.id === member.id ? { ...row, membership_tier: tier } : row)));
    } catch (error) {
      window.alert(`Could not change the tier of ${member.email}: ${(error as Error).message}`);
    }
  }

  return (
    <section>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-xl font-bold text-gray-900">Members</h2>
        <a
          href={`/api/admin/members/export.csv?search=${encodeURIComponent(search)}`}
          className="text-sm font-semibold text-brand-800 hover:text-brand-600"
        >
          Export CSV
        </a>
      </div>
      <input
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder="Search by name or email"
        className={adminInput}
      />
      <div className="mt-4 overflow-x-auto">
        <table className="w-full min-w-[560px] text-left text-sm">
          <thead className="text-gray-500">
            <tr>
              <th className="py-2">Name</th>
              <th>Email</th>
              <th>Tier</th>
              <th>Joined</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {rows.map((member) => (
              <tr key={member.id} data-member-email={member.email}>
                <td className="py-2 font-medium text-gray-900">{member.name}</td>
                <td>{member.email}</td>
                <td>
                  <select
                    aria-label={`Tier of ${member.email}`}
                    value={member.membership_tier}
                    onChange={(event) => changeTier(member, event.target.value as Tier)}
                    className="rounded border border-gray-300 px-2 py-1"
                  >
                    {TIERS.map((tier) => (
                      <option key={tier} value={tier}>
                        {TIER_LABEL[tier]}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{member.created_at.slice(0, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 && <p className="py-4 text-sm text-gray-500">No members found.</p>}
      </div>
    </section>
  );
}
