import { useEffect, useState } from 'react';
import { Form, Link, useFetcher, useNavigation, useSubmit } from 'react-router';
import { z } from 'zod';
import { MemberParams, MembersQuery, type AdminMember, type MembersOverview } from '../../../../common/admin.contract.ts';
import { planName, type Revenue } from '../../../../common/billing.contract.ts';
import { formatDate, formatMoney } from '../../../../common/format.ts';
import { Tier, TIER_LABEL, TIERS } from '../../../../common/tiers.ts';
import { BarChart } from '../../../components/admin/bar-chart.tsx';
import { TierBadge } from '../../../components/catalogue/tier-badge.tsx';
import { controlClass } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { attempt, invalid, parseForm } from '../../../lib/forms.ts';
import { orFallback, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/members-tab';

// The search and the page are in the URL (?search=, ?before=), so a reload or a shared link shows the same list.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const asked = new URL(request.url).searchParams;
  const query = MembersQuery.safeParse({ search: asked.get('search') ?? undefined, before: asked.get('before') ?? undefined });
  const search = query.success ? query.data.search : undefined;
  // Members and billing are the owners' (an editor who opens the address is told so).
  const members = await attempt(() => services.members.search(viewer, query.success ? query.data : {}));
  if (!members.ok) {
    return { search: search ?? '', members: [], next: null, revenue: null, overview: null, refusal: members.message };
  }
  const [revenue, overview] = await Promise.all([
    services.billing.enabled ? orFallback(services.billingAdmin.revenue(viewer), null, 'the revenue') : null,
    orFallback(services.members.overview(viewer), null, 'the members overview'),
  ]);
  return { search: search ?? '', members: members.value.items, next: members.value.next_cursor, revenue, overview, refusal: null };
}

const MemberAction = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('tier'), memberId: MemberParams.shape.id, membership_tier: Tier }),
  z.object({ intent: z.literal('refund'), memberId: MemberParams.shape.id }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await parseForm(MemberAction, request);
  if (!form.ok) return invalid(form);
  const input = form.data;
  if (input.intent === 'refund') {
    const refunded = await attempt(() => services.billingAdmin.refundFirstSubscription(viewer, input.memberId));
    if (!refunded.ok) return refunded.refusal;
    return {
      ok: true as const,
      message: `Refunded ${formatMoney(refunded.value.refunded_cents, refunded.value.subscription.currency)} and canceled.`,
    };
  }
  const changed = await attempt(() => services.members.setTier(viewer, input.memberId, input.membership_tier));
  if (!changed.ok) return changed.refusal;
  return { ok: true as const, message: null };
}

const TIER_OPTIONS = TIERS.map((tier) => ({ value: tier, label: TIER_LABEL[tier] }));

/** The complimentary tier staff give; payments never lower it, and it never lowers what a member pays for. */
function TierSelect({ member }: { member: AdminMember }) {
  const fetcher = useFetcher<typeof action>();
  // The choice shows at once; the loader's value returns if the server refused it.
  const tier = fetcher.formData?.get('membership_tier')?.toString() ?? member.complimentary_tier ?? 'free';
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok) {
      window.alert(`Could not change the tier of ${member.email}: ${fetcher.data.formError}`);
    }
  }, [fetcher.state, fetcher.data, member.email]);
  return (
    <select
      aria-label={`Complimentary tier of ${member.email}`}
      value={tier}
      onChange={(event) =>
        void fetcher.submit({ intent: 'tier', memberId: member.id, membership_tier: event.target.value }, { method: 'post' })
      }
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

/** Plan, status and renewal of the member's subscription, with the money-back refund while it applies. */
function SubscriptionCell({ member }: { member: AdminMember }) {
  const fetcher = useFetcher<typeof action>();
  const subscription = member.subscription;
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return;
    if (fetcher.data.ok) window.alert(`${member.email}: ${fetcher.data.message}`);
    else window.alert(`Could not refund ${member.email}: ${fetcher.data.formError}`);
  }, [fetcher.state, fetcher.data, member.email]);
  if (!subscription) return <span className="text-gray-600">None</span>;
  const plan =
    subscription.tier && subscription.period ? planName({ tier: subscription.tier, period: subscription.period }) : 'Custom plan';
  const date = formatDate(subscription.current_period_end);
  return (
    <div className="space-y-1" data-testid="member-subscription">
      <p className="font-medium text-gray-900">{plan}</p>
      <p className="text-xs text-gray-600">
        {subscription.status.replace('_', ' ')}
        {subscription.gives_access && ` · ${subscription.cancel_at_period_end ? 'ends' : 'renews'} ${date}`}
        {subscription.refunded_at && ` · refunded ${formatDate(subscription.refunded_at)}`}
      </p>
      {!subscription.refunded_at && (
        <fetcher.Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(`Refund every payment of ${member.email} and cancel their membership now? (30-day money-back guarantee)`)) {
              event.preventDefault();
            }
          }}
        >
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="memberId" value={member.id} />
          <button
            type="submit"
            disabled={fetcher.state !== 'idle'}
            className="text-xs font-semibold text-red-700 underline disabled:opacity-60"
          >
            Refund and cancel
          </button>
        </fetcher.Form>
      )}
    </div>
  );
}

/** Active subscriptions by plan and monthly recurring revenue. */
function RevenueCard({ revenue }: { revenue: Revenue }) {
  return (
    <section className="mb-6 rounded-xl border border-gray-200 p-4" aria-labelledby="revenue-title" data-testid="revenue">
      <h2 id="revenue-title" className="text-sm font-semibold uppercase tracking-wide text-gray-500">
        Revenue
      </h2>
      <div className="mt-2 flex flex-wrap gap-6">
        <p>
          <span className="block text-2xl font-extrabold text-brand-800">
            {formatMoney(revenue.monthly_recurring_cents, revenue.currency)}
          </span>
          <span className="text-sm text-gray-600">monthly recurring revenue</span>
        </p>
        <p>
          <span className="block text-2xl font-extrabold text-brand-800">{revenue.active_count}</span>
          <span className="text-sm text-gray-600">active subscriptions</span>
        </p>
      </div>
      {revenue.active_by_plan.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm text-gray-700">
          {revenue.active_by_plan.map((plan) => (
            <li key={`${plan.tier}-${plan.period}`}>
              {planName(plan)}: {plan.count}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Signups and enrolments of the last 12 weeks, and members by tier now. */
function Overview({ overview }: { overview: MembersOverview }) {
  const week = (start: string) => formatDate(start).replace(/, \d{4}$/, '');
  return (
    <div className="mb-6 grid gap-4 md:grid-cols-3" data-testid="members-overview">
      <BarChart title="Signups per week" items={overview.signups_by_week.map((row) => ({ label: week(row.week), value: row.count }))} />
      <BarChart
        title="Enrolments per week"
        items={overview.enrolments_by_week.map((row) => ({ label: week(row.week), value: row.count }))}
      />
      <BarChart title="Members by tier" items={TIERS.map((tier) => ({ label: TIER_LABEL[tier], value: overview.members_by_tier[tier] }))} />
    </div>
  );
}

export default function MembersTab({ loaderData }: Route.ComponentProps) {
  const { members, next, search, revenue, overview, refusal } = loaderData;
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

  if (refusal) return <p className="rounded-xl bg-white p-6 text-gray-700">{refusal}</p>;
  return (
    <section>
      {revenue && <RevenueCard revenue={revenue} />}
      {overview && <Overview overview={overview} />}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-xl font-bold text-gray-900">Members</h2>
        <a
          href={`/api/admin/members/export.csv?search=${encodeURIComponent(search)}`}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600"
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
        {/* On a phone each member is a stacked row with its own labels; from sm up, a table. */}
        <table className="w-full text-left text-sm sm:min-w-[760px]">
          <thead className="hidden text-gray-500 sm:table-header-group">
            <tr>
              <th className="py-2">Name</th>
              <th>Email</th>
              <th>Tier</th>
              <th>Complimentary</th>
              <th>Subscription</th>
              <th>Joined</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {members.map((member) => (
              <tr
                key={member.id}
                data-member-email={member.email}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 sm:table-row sm:py-0"
              >
                <td className="font-medium text-gray-900 sm:py-2">
                  <Link
                    to={`/admin/dashboard/members/${member.id}`}
                    className="inline-flex min-h-11 items-center text-brand-800 hover:text-brand-600"
                  >
                    {member.name}
                  </Link>
                </td>
                <td className="break-all sm:break-normal">{member.email}</td>
                <td>
                  <TierBadge tier={member.membership_tier} />
                </td>
                <td>
                  <span className="mr-1 text-xs text-gray-500 sm:hidden">Complimentary</span>
                  <TierSelect member={member} />
                </td>
                <td className="sm:py-2">
                  <SubscriptionCell member={member} />
                </td>
                <td>
                  <span className="mr-1 text-xs text-gray-500 sm:hidden">Joined</span>
                  {member.created_at.slice(0, 10)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {members.length === 0 && <p className="py-4 text-sm text-gray-500">No members found.</p>}
        <Pager param="before" next={next} />
      </div>
    </section>
  );
}
