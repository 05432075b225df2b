import { useEffect, useState } from 'react';
import { Form, useFetcher, useNavigation, useSubmit } from 'react-router';
import { z } from 'zod';
import { MemberParams, MembersQuery, type AdminMember } from '../../../../common/admin.contract.ts';
import { Tier, TIER_LABEL, TIERS } from '../../../../common/tiers.ts';
import { controlClass } from '../../../components/ui/field.tsx';
import { attempt, invalid, parseForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/members-tab';

// The search is in the URL (?search=), so a reload or a shared link shows the same list.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const query = MembersQuery.safeParse({ search: new URL(request.url).searchParams.get('search') ?? undefined });
  const search = query.success ? query.data.search : undefined;
  return { search: search ?? '', members: await services.members.search(viewer, search) };
}

const TierChange = z.object({ memberId: MemberParams.shape.id, membership_tier: Tier });

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await parseForm(TierChange, request);
  if (!form.ok) return invalid(form);
  const changed = await attempt(() => services.members.setTier(viewer, form.data.memberId, form.data.membership_tier));
  if (!changed.ok) return changed.refusal;
  return { ok: true as const };
}

const TIER_OPTIONS = TIERS.map((tier) => ({ value: tier, label: TIER_LABEL[tier] }));

function TierSelect({ member }: { member: AdminMember }) {
  const fetcher = useFetcher<typeof action>();
  // The choice shows at once; the loader's value returns if the server refused it.
  const tier = fetcher.formData?.get('membership_tier')?.toString() ?? member.membership_tier;
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok) {
      window.alert(`Could not change the tier of ${member.email}: ${fetcher.data.formError}`);
    }
  }, [fetcher.state, fetcher.data, member.email]);
  return (
    <select
      aria-label={`Tier of ${member.email}`}
      value={tier}
      onChange={(event) => void fetcher.submit({ memberId: member.id, membership_tier: event.target.value }, { method: 'post' })}
      className="rounded border border-gray-300 px-2 py-1"
    >
      {TIER_OPTIONS.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

export default function MembersTab({ loaderData }: Route.ComponentProps) {
  const { members, search } = loaderData;
  const submit = useSubmit();
  const navigating = useNavigation().state !== 'idle';
  const [typed, setTyped] = useState(search);

  // Searching as the staff member types, a moment after the last key; never over a navigation
  // already under way (another tab the staff member just opened).
  useEffect(() => {
    if (typed === search || navigating) return;
    const timer = setTimeout(() => void submit({ search: typed }, { method: 'get', replace: true }), 250);
    return () => clearTimeout(timer);
  }, [typed, search, navigating, submit]);

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
      <Form method="get" role="search" className="mt-2">
        <label className="sr-only" htmlFor="member-search">
          Search members
        </label>
        <input
          id="member-search"
          type="search"
          name="search"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder="Search by name or email"
          className={controlClass(true)}
        />
      </Form>
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
            {members.map((member) => (
              <tr key={member.id} data-member-email={member.email}>
                <td className="py-2 font-medium text-gray-900">{member.name}</td>
                <td>{member.email}</td>
                <td>
                  <TierSelect member={member} />
                </td>
                <td>{member.created_at.slice(0, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {members.length === 0 && <p className="py-4 text-sm text-gray-500">No members found.</p>}
      </div>
    </section>
  );
}
