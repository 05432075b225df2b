import { useFetcher } from 'react-router';
import { z } from 'zod';
import { mayEnterStaffArea } from '../../../../common/policies.ts';
import { TwoFactorCodeInput } from '../../../../common/two-factor.contract.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/field.tsx';
import { attempt, invalid, parseForm } from '../../../lib/forms.ts';
import { useResultToast } from '../../../lib/use-result-toast.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/security-tab';
import { TEXT_MAX, TOTP_DIGITS } from '../../../../common/limits.ts';

// Every staff member's own two-factor sign-in; owners also choose whether everyone must use it.
export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  // Requiring it of every staff member is the staff area's, the owners'.
  return { status: await services.twoFactor.status(viewer), isOwner: mayEnterStaffArea(viewer, 'staff') };
}

const SecurityForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('begin') }),
  TwoFactorCodeInput.extend({ intent: z.literal('enable') }),
  TwoFactorCodeInput.extend({ intent: z.literal('disable') }),
  z.object({ intent: z.literal('require'), required: z.enum(['true', 'false']) }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(SecurityForm, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = staffPageServices(context);
  const input = form.data;
  switch (input.intent) {
    case 'begin': {
      const setup = await attempt(() => services.twoFactor.begin(viewer));
      return setup.ok ? { ok: true as const, message: 'Add the key to your app, then enter its code.', setup: setup.value } : setup.refusal;
    }
    case 'enable': {
      const enabled = await attempt(() => services.twoFactor.enable(viewer, input.code));
      return enabled.ok
        ? { ok: true as const, message: 'Two-factor sign-in is on.', recoveryCodes: enabled.value.recovery_codes }
        : enabled.refusal;
    }
    case 'disable': {
      const disabled = await attempt(() => services.twoFactor.disable(viewer, input.code));
      return disabled.ok ? { ok: true as const, message: 'Two-factor sign-in is off.' } : disabled.refusal;
    }
    case 'require': {
      const required = input.required === 'true';
      const set = await attempt(() => services.twoFactor.setRequired(viewer, required));
      if (!set.ok) return set.refusal;
      return {
        ok: true as const,
        message: required ? 'Every staff member now signs in with a code.' : 'Two-factor sign-in is each one’s choice.',
      };
    }
  }
}

/** The secret grouped by four, as people type it into an app. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function Setup() {
  const begin = useFetcher<typeof action>();
  const enable = useFetcher<typeof action>();
  useResultToast(enable);
  const setup = begin.data?.ok && 'setup' in begin.data ? begin.data.setup : null;
  const codes = enable.data?.ok && 'recoveryCodes' in enable.data ? enable.data.recoveryCodes : null;
  if (codes) {
    return (
      <div className="space-y-3" data-testid="recovery-codes">
        <p className="font-semibold text-gray-900">
          Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in once without your phone. They are not shown
          again.
        </p>
        <ul className="grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5">
          {codes.map((code) => (
            <li key={code} className="rounded bg-gray-100 px-2 py-1 text-center">
              {code}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (!setup) {
    return (
      <begin.Form method="post">
        <input type="hidden" name="intent" value="begin" />
        <Button type="submit" size="sm" disabled={begin.state !== 'idle'}>
          Set up two-factor sign-in
        </Button>
      </begin.Form>
    );
  }
  const refused = enable.data && !enable.data.ok ? enable.data.formError : null;
  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-2 pl-5 text-sm text-gray-700">
        <li>
          In an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password...), add an account with this key:{' '}
          <code className="break-all rounded bg-gray-100 px-1 font-mono" data-testid="totp-secret">
            {grouped(setup.secret)}
          </code>{' '}
          (on this phone,{' '}
          <a href={setup.uri} className="font-semibold text-brand-800 underline">
            open it in the app
          </a>
          ).
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <enable.Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="enable" />
        <Input
          label="Code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          maxLength={TOTP_DIGITS}
          compact
          error={refused ?? undefined}
        />
        <Button type="submit" size="sm" disabled={enable.state !== 'idle'}>
          Turn on
        </Button>
      </enable.Form>
    </div>
  );
}

function TurnOff({ required }: { required: boolean }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  if (required) return <p className="text-sm text-gray-600">Owners require it of every staff member: it stays on.</p>;
  return (
    <fetcher.Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="disable" />
      <Input
        label="Code (or a recovery code) to turn it off"
        name="code"
        autoComplete="one-time-code"
        required
        maxLength={TEXT_MAX.twoFactorCode}
        compact
      />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
        Turn off
      </Button>
    </fetcher.Form>
  );
}

function RequireForEveryone({ required }: { required: boolean }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  return (
    <fetcher.Form method="post" className="mt-6 border-t border-gray-100 pt-4">
      <input type="hidden" name="intent" value="require" />
      <input type="hidden" name="required" value={required ? 'false' : 'true'} />
      <p className="text-sm text-gray-700">
        {required
          ? 'Every staff member signs in with a code; those who have not set it up can do nothing else until they do.'
          : 'Each staff member chooses. Require it of everyone (yours must be on first):'}
      </p>
      <Button type="submit" size="sm" variant="outline" className="mt-2" disabled={fetcher.state !== 'idle'}>
        {required ? 'Stop requiring it' : 'Require it of every staff member'}
      </Button>
    </fetcher.Form>
  );
}

export default function SecurityTab({ loaderData }: Route.ComponentProps) {
  const { status, isOwner } = loaderData;
  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Two-factor sign-in</h2>
      <p className="mt-2 text-sm text-gray-700">
        A code from an app on your phone, after your password: a stolen password alone no longer opens the admin.
      </p>
      {status.required && !status.enabled && (
        <p role="alert" className="mt-3 rounded-lg bg-gold-100 px-3 py-2 text-sm text-gray-900">
          Owners require two-factor sign-in for staff: set it up to use the admin.
        </p>
      )}
      <div className="mt-4">
        {status.enabled ? (
          <div className="space-y-3">
            <p className="font-semibold text-green-800">On. {status.recovery_codes_left} recovery codes left.</p>
            <TurnOff required={status.required} />
          </div>
        ) : (
          <Setup />
        )}
      </div>
      {isOwner && <RequireForEveryone required={status.required} />}
    </section>
  );
}
