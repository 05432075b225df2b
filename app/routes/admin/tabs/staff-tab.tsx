import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { z } from 'zod';
import { StaffInvitation, StaffParams, type StaffAccount } from '../../../../common/admin.contract.ts';
import { formatDate, formatDateTime } from '../../../../common/format.ts';
import { StaffRole } from '../../../../common/staff-roles.ts';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { ConfirmedForm } from '../../../components/ui/confirmed-form.tsx';
import { Input, Select } from '../../../components/ui/field.tsx';
import { attempt, formErrors, readForm, unreadableForm } from '../../../lib/forms.ts';
import { listPageOf, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/staff-tab';
import { TEXT_MAX } from '../../../../common/limits.ts';

// Owners only: the service refuses editors, and the page shows them the reason.
// A page of accounts, oldest first; the next is in the address (?before=), so paging works without JavaScript.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const staff = await attempt(() => services.staff.list(viewer, listPageOf(request)));
  return staff.ok
    ? { staff: staff.value.items, next: staff.value.next_cursor, refusal: null }
    : { staff: [], next: null, refusal: staff.message };
}

const ROLE_OPTIONS = [
  { value: 'editor', label: 'Editor: authors courses, resources, podcast, files and texts' },
  { value: 'owner', label: 'Owner: also staff, members and billing' },
];
const Target = z.object({ staffId: StaffParams.shape.id });

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const intent = form.get('intent');
  if (intent === 'invite') {
    const invitation = StaffInvitation.safeParse({ email: form.get('email'), role: form.get('role') });
    if (!invitation.success) return formErrors(invitation.error.issues[0]?.message ?? 'Please check the form.');
    const invited = await attempt(() => services.staff.invite(viewer, invitation.data));
    return invited.ok ? { ok: true as const, message: `Invitation sent to ${invited.value.email}.` } : invited.refusal;
  }
  const target = Target.safeParse({ staffId: form.get('staffId') });
  if (!target.success) return formErrors(target.error.issues[0]?.message ?? 'Choose a staff member.');
  if (intent === 'remove') {
    const removed = await attempt(() => services.staff.remove(viewer, target.data.staffId));
    return removed.ok ? { ok: true as const, message: 'Staff member removed.' } : removed.refusal;
  }
  if (intent === 'lift-lock') {
    const lifted = await attempt(() => services.staff.liftTwoFactorLock(viewer, target.data.staffId));
    return lifted.ok ? { ok: true as const, message: `${lifted.value.email} can use their two-factor codes again.` } : lifted.refusal;
  }
  const role = StaffRole.safeParse(form.get('role'));
  if (!role.success) return formErrors(role.error.issues[0]?.message ?? 'Choose a role.');
  const changed = await attempt(() => services.staff.setRole(viewer, target.data.staffId, role.data));
  return changed.ok ? { ok: true as const, message: `${changed.value.email} is now ${changed.value.role}.` } : changed.refusal;
}

function StaffRow({ account }: { account: StaffAccount }) {
  const fetcher = useFetcher<typeof action>();
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4" data-staff-email={account.email}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-semibold text-gray-900">
            {account.email} {account.you && <span className="text-sm font-normal text-gray-500">(you)</span>}
          </p>
          <p className="text-xs text-gray-500">Since {formatDate(account.created_at)}</p>
          {account.two_factor_locked_until && (
            <p className="mt-1 text-sm font-semibold text-red-800">
              Two-factor sign-in locked until {formatDateTime(account.two_factor_locked_until)} (too many wrong codes)
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <select
            aria-label={`Role of ${account.email}`}
            value={fetcher.formData?.get('role')?.toString() ?? account.role}
            onChange={(event) => void fetcher.submit({ intent: 'role', staffId: account.id, role: event.target.value }, { method: 'post' })}
            className="rounded border border-gray-300 px-2 py-1 text-sm"
          >
            <option value="editor">Editor</option>
            <option value="owner">Owner</option>
          </select>
          {account.two_factor_locked_until && !account.you && (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="lift-lock" />
              <input type="hidden" name="staffId" value={account.id} />
              <Button
                type="submit"
                size="sm"
                variant="outline"
                aria-label={`Lift the lock on ${account.email}`}
                disabled={fetcher.state !== 'idle'}
              >
                Lift the lock
              </Button>
            </fetcher.Form>
          )}
          {!account.you && (
            <ConfirmedForm
              fetcher={fetcher}
              question={`Remove ${account.email} from the staff?`}
              fields={{ intent: 'remove', staffId: account.id }}
            >
              <button
                type="submit"
                aria-label={`Remove ${account.email}`}
                className="text-sm font-semibold text-red-700 hover:text-red-600"
              >
                Remove
              </button>
            </ConfirmedForm>
          )}
        </div>
      </div>
      <div className="mt-2">
        <Outcome answer={fetcher.state === 'idle' ? fetcher.data : undefined} />
      </div>
    </li>
  );
}

export default function StaffTab({ loaderData }: Route.ComponentProps) {
  const { staff, next, refusal } = loaderData;
  const inviting = useFetcher<typeof action>();
  // The form empties once an invitation is sent (the new account may be on another page of the list).
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (inviting.state === 'idle' && inviting.data?.ok) form.current?.reset();
  }, [inviting.state, inviting.data]);
  if (refusal) return <p className="rounded-xl bg-white p-6 text-gray-700">{refusal}</p>;
  return (
    <section className="space-y-8">
      <div>
        <h2 className="text-xl font-bold text-gray-900">Staff</h2>
        <ul className="mt-4 space-y-3">
          {staff.map((account) => (
            <StaffRow key={account.id} account={account} />
          ))}
        </ul>
        <Pager param="before" next={next} />
      </div>
      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h2 className="text-xl font-bold text-gray-900">Invite a staff member</h2>
        <p className="mt-1 text-sm text-gray-600">They get an email with a link to choose their password (it works for 7 days).</p>
        <inviting.Form ref={form} method="post" className="mt-4 grid gap-3 sm:grid-cols-2">
          <input type="hidden" name="intent" value="invite" />
          <Input compact label="Email" name="email" type="email" required maxLength={TEXT_MAX.email} />
          <Select compact label="Role" name="role" defaultValue="editor" options={ROLE_OPTIONS} />
          <div className="sm:col-span-2">
            <Outcome answer={inviting.state === 'idle' ? inviting.data : undefined} />
            <Button type="submit" className="mt-2" disabled={inviting.state !== 'idle'}>
              {inviting.state !== 'idle' ? 'Sending...' : 'Send invitation'}
            </Button>
          </div>
        </inviting.Form>
      </div>
    </section>
  );
}
