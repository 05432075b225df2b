import { redirect, useFetcher } from 'react-router';
import { z } from 'zod';
import { EmailChangeRequest, PasswordChange } from '../../../../common/account.contract.ts';
import { formatDateTime } from '../../../../common/format.ts';
import { mayEnterStaffArea } from '../../../../common/policies.ts';
import { TwoFactorConfirmInput } from '../../../../common/two-factor.contract.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/field.tsx';
import { attempt, invalid, parseForm, type FormErrors } from '../../../lib/forms.ts';
import { useResultToast } from '../../../lib/use-result-toast.ts';
import { pageSession, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/security-tab';
import { PASSWORD_MIN_LENGTH, TEXT_MAX, TOTP_DIGITS } from '../../../../common/limits.ts';

// Every staff member's own sign-in: two-factor sign-in, their email and their password, each change
// with the password again (a stolen session alone changes none of them). Owners also choose whether
// everyone must use two-factor sign-in.
export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer, staff } = staffPageServices(context);
  // Requiring it of every staff member is the staff area's, the owners'.
  return { status: await services.twoFactor.status(viewer), isOwner: mayEnterStaffArea(viewer, 'staff'), email: staff.email };
}

const SecurityForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('begin') }),
  TwoFactorConfirmInput.extend({ intent: z.literal('enable') }),
  TwoFactorConfirmInput.extend({ intent: z.literal('disable') }),
  TwoFactorConfirmInput.extend({ intent: z.literal('recovery-codes') }),
  z.object({ intent: z.literal('require'), required: z.enum(['true', 'false']) }),
  EmailChangeRequest.extend({ intent: z.literal('email') }),
  PasswordChange.extend({ intent: z.literal('password') }),
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
      const enabled = await attempt(() => services.twoFactor.enable(viewer, input));
      return enabled.ok
        ? { ok: true as const, message: 'Two-factor sign-in is on.', recoveryCodes: enabled.value.recovery_codes }
        : enabled.refusal;
    }
    case 'disable': {
      const disabled = await attempt(() => services.twoFactor.disable(viewer, input));
      return disabled.ok ? { ok: true as const, message: 'Two-factor sign-in is off.' } : disabled.refusal;
    }
    case 'recovery-codes': {
      const made = await attempt(() => services.twoFactor.newRecoveryCodes(viewer, input));
      return made.ok
        ? { ok: true as const, message: 'New recovery codes: the old ones no longer work.', recoveryCodes: made.value.recovery_codes }
        : made.refusal;
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
    case 'email': {
      const changed = await attempt(() => services.staff.changeEmail(viewer, input));
      return changed.ok ? { ok: true as const, message: changed.value.message } : changed.refusal;
    }
    case 'password': {
      const changed = await attempt(() => services.staff.changePassword(viewer, input));
      if (!changed.ok) return changed.refusal;
      // Every session of the account ended, this one too: sign in again with the new password.
      const session = pageSession(context);
      await session.staffSignOut();
      session.flash({ type: 'success', message: 'Your password was changed. Sign in with your new password.' });
      return redirect('/admin/login');
    }
  }
}

/** A field's message from the answer, when the server refused the form because of it. */
const fieldError = (answer: { ok: boolean } | FormErrors | undefined, field: string) =>
  answer && !answer.ok && 'fieldErrors' in answer ? answer.fieldErrors[field] : undefined;

/** The secret grouped by four, as people type it into an app. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function RecoveryCodeList({ codes, intro }: { codes: string[]; intro: string }) {
  return (
    <div className="space-y-3" data-testid="recovery-codes">
      <p className="font-semibold text-gray-900">
        {intro} Keep these recovery codes somewhere safe: each signs you in once without your phone. They are not shown again.
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

/** The password again, for a change a stolen session must not make. */
function CurrentPasswordInput({ error, name = 'password' }: { error?: string; name?: string }) {
  return (
    <Input
      label="Current password"
      name={name}
      type="password"
      autoComplete="current-password"
      required
      maxLength={TEXT_MAX.password}
      compact
      error={error}
    />
  );
}

function Setup() {
  const begin = useFetcher<typeof action>();
  const enable = useFetcher<typeof action>();
  useResultToast(enable);
  const setup = begin.data?.ok && 'setup' in begin.data ? begin.data.setup : null;
  const codes = enable.data?.ok && 'recoveryCodes' in enable.data ? enable.data.recoveryCodes : null;
  if (codes) return <RecoveryCodeList codes={codes} intro="Two-factor sign-in is on." />;
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
        <li>Enter the 6-digit code the app shows, and your password.</li>
      </ol>
      <enable.Form method="post" aria-label="Turn on two-factor sign-in" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="enable" />
        <Input
          label="Code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          maxLength={TOTP_DIGITS}
          compact
          error={fieldError(enable.data, 'code')}
        />
        <CurrentPasswordInput error={fieldError(enable.data, 'password')} />
        <Button type="submit" size="sm" disabled={enable.state !== 'idle'}>
          Turn on
        </Button>
      </enable.Form>
    </div>
  );
}

/** A code from the app (or a recovery code) and the password: turning it off, or new recovery codes. */
function CodeAndPasswordForm({
  intent,
  title,
  label,
  submit,
}: {
  intent: 'disable' | 'recovery-codes';
  title: string;
  label: string;
  submit: string;
}) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const codes = fetcher.data?.ok && 'recoveryCodes' in fetcher.data ? fetcher.data.recoveryCodes : null;
  if (codes) return <RecoveryCodeList codes={codes} intro="New recovery codes are ready; the old ones no longer work." />;
  return (
    <fetcher.Form method="post" aria-label={title} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value={intent} />
      <Input
        label={label}
        name="code"
        autoComplete="one-time-code"
        required
        maxLength={TEXT_MAX.twoFactorCode}
        compact
        error={fieldError(fetcher.data, 'code')}
      />
      <CurrentPasswordInput error={fieldError(fetcher.data, 'password')} />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
        {submit}
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

function ChangeEmail({ email }: { email: string }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  return (
    <fetcher.Form method="post" aria-label="Change your email" className="grid gap-3 sm:grid-cols-3 sm:items-end">
      <input type="hidden" name="intent" value="email" />
      <Input
        label="New email"
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={TEXT_MAX.email}
        compact
        placeholder={email}
        error={fieldError(fetcher.data, 'email')}
      />
      <CurrentPasswordInput error={fieldError(fetcher.data, 'password')} />
      <div>
        <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
          Change email
        </Button>
      </div>
    </fetcher.Form>
  );
}

function ChangePassword() {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  return (
    <fetcher.Form method="post" aria-label="Change your password" className="grid gap-3 sm:grid-cols-3 sm:items-end">
      <input type="hidden" name="intent" value="password" />
      <CurrentPasswordInput name="current_password" error={fieldError(fetcher.data, 'current_password')} />
      <Input
        label="New password"
        name="new_password"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={TEXT_MAX.password}
        compact
        error={fieldError(fetcher.data, 'new_password')}
      />
      <div>
        <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
          Change password
        </Button>
      </div>
    </fetcher.Form>
  );
}

export default function SecurityTab({ loaderData }: Route.ComponentProps) {
  const { status, isOwner, email } = loaderData;
  return (
    <div className="space-y-8">
      <section aria-labelledby="two-factor-heading">
        <h2 id="two-factor-heading" className="text-xl font-bold text-gray-900">
          Two-factor sign-in
        </h2>
        <p className="mt-2 text-sm text-gray-700">
          A code from an app on your phone, after your password: a stolen password alone no longer opens the admin.
        </p>
        {status.required && !status.enabled && (
          <p role="alert" className="mt-3 rounded-lg bg-gold-100 px-3 py-2 text-sm text-gray-900">
            Owners require two-factor sign-in for staff: set it up to use the admin.
          </p>
        )}
        {status.locked_until && (
          <p role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            Too many wrong codes: every code for your account is refused until {formatDateTime(status.locked_until)}. Another owner can lift
            the lock sooner, in the Staff tab. If the wrong codes were not yours, someone knows your password: change it below.
          </p>
        )}
        <div className="mt-4">
          {status.enabled ? (
            <div className="space-y-5">
              <p className="font-semibold text-green-800">On. {status.recovery_codes_left} recovery codes left.</p>
              {status.required ? (
                <p className="text-sm text-gray-600">Owners require it of every staff member: it stays on.</p>
              ) : (
                <CodeAndPasswordForm
                  intent="disable"
                  title="Turn off two-factor sign-in"
                  label="Code (or a recovery code) to turn it off"
                  submit="Turn off"
                />
              )}
              <CodeAndPasswordForm
                intent="recovery-codes"
                title="New recovery codes"
                label="Code (or a recovery code) for new recovery codes"
                submit="Make new recovery codes"
              />
            </div>
          ) : (
            <Setup />
          )}
        </div>
        {isOwner && <RequireForEveryone required={status.required} />}
      </section>
      <section aria-labelledby="account-heading" className="space-y-4 border-t border-gray-100 pt-6">
        <h2 id="account-heading" className="text-xl font-bold text-gray-900">
          Your email and password
        </h2>
        <p className="text-sm text-gray-700">
          You sign in as <span className="font-semibold">{email}</span>. A new password signs every device out, this one too.
        </p>
        <ChangeEmail email={email} />
        <ChangePassword />
      </section>
    </div>
  );
}
