import { Link, redirect, useFetcher } from 'react-router';
import { useResultToast } from '../../lib/use-result-toast.ts';
import { z } from 'zod';
import { AccountDeletion, EmailChangeRequest, NameChange, PasswordChange } from '../../../common/account.contract.ts';
import { PASSWORD_MIN_LENGTH, TEXT_MAX } from '../../../common/limits.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Select } from '../../components/ui/field.tsx';
import { TimeZoneInput } from '../../../common/coaching.contract.ts';
import { DEFAULT_TIME_ZONE } from '../../../common/time-zones.ts';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices, orFallback, pageServices, pageSession } from '../../lib/page-context.ts';
import { formatDateTime } from '../../../common/format.ts';
import type { DeviceView } from '../../../common/auth.contract.ts';
import type { Route } from './+types/account';

export const meta = () =>
  pageMeta({ title: 'Account settings', description: 'Your RealtyPocket account: name, email, password and devices.' });

export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer, member } = memberPageServices(context);
  const timeZone = member.timeZone ?? DEFAULT_TIME_ZONE;
  const listed = Intl.supportedValuesOf('timeZone');
  return {
    me: services.auth.me(viewer),
    devices: await orFallback(services.auth.devices(viewer), [], 'your devices'),
    timeZone,
    emails: await orFallback(services.account.emailChoices(viewer), { weekly_tips: true, optional_email: true }, 'your email choices'),
    // From the server, so the page and its hydration list the same zones; the member's own is among
    // them even when their browser named it otherwise than the list does (Asia/Kolkata, US/Eastern).
    zones: listed.includes(timeZone) ? listed : [...listed, timeZone].sort(),
  };
}

const AccountForm = z.discriminatedUnion('intent', [
  NameChange.extend({ intent: z.literal('name') }),
  TimeZoneInput.extend({ intent: z.literal('time-zone') }),
  z.object({ intent: z.literal('weekly-tips'), weekly_tips: z.enum(['on', 'off']) }),
  EmailChangeRequest.extend({ intent: z.literal('email') }),
  PasswordChange.extend({ intent: z.literal('password') }),
  z.object({ intent: z.literal('sign-out-others') }),
  z.object({ intent: z.literal('sign-out-device'), sessionId: z.uuid('Choose a device') }),
  AccountDeletion.extend({ intent: z.literal('delete') }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(AccountForm, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const input = form.data;
  switch (input.intent) {
    case 'name': {
      const done = await attempt(() => services.account.changeName(viewer, input.name));
      return done.ok ? { ok: true as const, message: 'Your name was saved.' } : done.refusal;
    }
    case 'time-zone': {
      const done = await attempt(() => services.account.setTimeZone(viewer, input.time_zone));
      return done.ok ? { ok: true as const, message: 'Times are now shown in your new time zone.' } : done.refusal;
    }
    case 'weekly-tips': {
      const on = input.weekly_tips === 'on';
      const done = await attempt(() => services.account.setWeeklyTips(viewer, on));
      return done.ok ? { ok: true as const, message: on ? 'You will get the weekly tips.' : 'The weekly tips are off.' } : done.refusal;
    }
    case 'email': {
      const done = await attempt(() => services.account.requestEmailChange(viewer, input));
      return done.ok ? { ok: true as const, message: done.value.message } : done.refusal;
    }
    case 'password': {
      const done = await attempt(() => services.account.changePassword(viewer, input));
      return done.ok ? { ok: true as const, message: 'Your password was changed; your other devices were signed out.' } : done.refusal;
    }
    case 'sign-out-others': {
      const done = await attempt(() => services.auth.revokeOtherSessions(viewer));
      if (!done.ok) return done.refusal;
      return {
        ok: true as const,
        message: done.value === 1 ? 'Signed out of 1 other device' : `Signed out of ${done.value} other devices`,
      };
    }
    case 'sign-out-device': {
      const done = await attempt(() => services.auth.signOutDevice(viewer, input.sessionId));
      return done.ok ? { ok: true as const, message: 'That device is signed out.' } : done.refusal;
    }
    case 'delete': {
      const done = await attempt(() => services.account.deleteAccount(viewer, input.password));
      if (!done.ok) return done.refusal;
      const session = pageSession(context);
      await session.signOut();
      session.flash({ type: 'success', message: 'Your account was deleted.' });
      throw redirect('/');
    }
  }
}

type AccountFetcher = ReturnType<typeof useFetcher<typeof action>>;

/** One settings form: its own fetcher, its result as a toast, its field errors beside the fields. */
function useSettingsForm(key: string): AccountFetcher {
  const fetcher = useFetcher<typeof action>({ key });
  useResultToast(fetcher);
  return fetcher;
}

const errorsOf = (fetcher: AccountFetcher) => (fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : {});

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card as="section" className="p-6">
      <h2 className="text-lg font-bold text-gray-900">{title}</h2>
      <div className="mt-4">{children}</div>
    </Card>
  );
}

/** One signed-in device: what it is, from where and when, and a way to sign it out (not this one: Logout does that). */
function DeviceRow({ device }: { device: DeviceView }) {
  const fetcher = useSettingsForm(`device-${device.id}`);
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
      <div>
        <p className="font-semibold text-gray-900">
          {device.device}
          {device.current && <span className="ml-2 text-xs font-normal text-green-800">This device</span>}
        </p>
        <p className="text-xs text-gray-600">
          {device.address ? `${device.address} · ` : ''}last used {formatDateTime(device.last_used_at)} · signed in{' '}
          {formatDateTime(device.signed_in_at)}
        </p>
      </div>
      {!device.current && (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="sign-out-device" />
          <input type="hidden" name="sessionId" value={device.id} />
          <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
            Sign out
          </Button>
        </fetcher.Form>
      )}
    </li>
  );
}

export default function AccountPage({ loaderData }: Route.ComponentProps) {
  const { me, devices: signedIn, timeZone, zones, emails } = loaderData;
  const name = useSettingsForm('account-name');
  const zone = useSettingsForm('account-time-zone');
  const tips = useSettingsForm('account-weekly-tips');
  const email = useSettingsForm('account-email');
  const password = useSettingsForm('account-password');
  const devices = useSettingsForm('account-devices');
  const removal = useSettingsForm('account-delete');

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">Account settings</h1>

      <Section title="Your name">
        <name.Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="name" />
          <Input
            label="Full name"
            name="name"
            defaultValue={me.name}
            required
            maxLength={TEXT_MAX.name}
            autoComplete="name"
            error={errorsOf(name).name}
          />
          <Button type="submit" size="sm" disabled={name.state !== 'idle'}>
            Save name
          </Button>
        </name.Form>
      </Section>

      <Section title="Time zone">
        <zone.Form method="post" className="space-y-4" id="time-zone">
          <input type="hidden" name="intent" value="time-zone" />
          <Select
            label="Your time zone"
            name="time_zone"
            defaultValue={timeZone}
            options={zones.map((value) => ({ value, label: value.replace(/_/g, ' ') }))}
            error={errorsOf(zone).time_zone}
          />
          <p className="text-xs text-gray-500">Coaching sessions, bookings and reminders show in this zone.</p>
          <Button type="submit" size="sm" disabled={zone.state !== 'idle'}>
            Save time zone
          </Button>
        </zone.Form>
      </Section>

      <Section title="Emails">
        <tips.Form method="post" className="space-y-3" id="emails">
          <input type="hidden" name="intent" value="weekly-tips" />
          <p className="text-sm text-gray-700">
            The weekly tips email comes on Monday morning with the week&apos;s daily tips.{' '}
            {emails.weekly_tips ? 'You get it.' : 'It is off.'}
          </p>
          {!emails.optional_email && (
            <p className="text-xs text-gray-500">You unsubscribed from optional emails, so none is sent, the weekly tips included.</p>
          )}
          <Button
            type="submit"
            name="weekly_tips"
            value={emails.weekly_tips ? 'off' : 'on'}
            size="sm"
            variant="outline"
            disabled={tips.state !== 'idle'}
          >
            {emails.weekly_tips ? 'Turn off the weekly tips' : 'Turn on the weekly tips'}
          </Button>
        </tips.Form>
        <p className="mt-3 text-sm text-gray-700">
          Replies, mentions, news of courses and sessions, reminders and broadcasts: choose which you get by email, by push or on the site
          only in{' '}
          <Link to="/notifications/settings" className="font-semibold text-brand-800 underline">
            notification settings
          </Link>
          .
        </p>
        <p className="mt-3 text-sm text-gray-700">
          The news we send members is on the site too:{' '}
          <Link to="/broadcasts" className="font-semibold text-brand-800 underline">
            read past news
          </Link>
          .
        </p>
      </Section>

      <Section title="Email address">
        <p className="text-sm text-gray-700">
          {me.email} {me.email_verified ? '(confirmed)' : '(not confirmed yet)'}
        </p>
        <email.Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="email" />
          <Input label="New email" name="email" type="email" required autoComplete="email" error={errorsOf(email).email} />
          <Input
            label="Current password"
            name="password"
            type="password"
            required
            autoComplete="current-password"
            error={errorsOf(email).password}
          />
          <p className="text-xs text-gray-500">We send a link to the new address; your email changes when you open it.</p>
          <Button type="submit" size="sm" disabled={email.state !== 'idle'}>
            Change email
          </Button>
        </email.Form>
      </Section>

      <Section title="Password">
        <password.Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="password" />
          <Input
            label="Current password"
            name="current_password"
            type="password"
            required
            autoComplete="current-password"
            error={errorsOf(password).current_password}
          />
          <Input
            label="New password"
            name="new_password"
            type="password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            autoComplete="new-password"
            error={errorsOf(password).new_password}
          />
          <Button type="submit" size="sm" disabled={password.state !== 'idle'}>
            Change password
          </Button>
        </password.Form>
      </Section>

      <Section title="Devices">
        <p className="text-sm text-gray-700">
          Where your account is signed in now. Lost a phone, or signed in on a shared computer? Sign it out.
        </p>
        <ul className="mt-4 divide-y divide-gray-100 rounded-xl border border-gray-200" data-testid="devices">
          {signedIn.map((device) => (
            <DeviceRow key={device.id} device={device} />
          ))}
        </ul>
        <devices.Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="sign-out-others" />
          <Button type="submit" size="sm" variant="outline" disabled={devices.state !== 'idle'}>
            Sign out of other devices
          </Button>
        </devices.Form>
      </Section>

      <Section title="Your data">
        <p className="text-sm text-gray-700">
          Everything we hold of yours (your profile, plan and invoices, courses and progress, certificates, discussions, replies and likes,
          sign-ins and choices) in one file.
        </p>
        <a
          href="/api/account/export"
          download
          className="mt-4 inline-flex min-h-11 items-center rounded-lg border border-brand-800 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
        >
          Download my data
        </a>
      </Section>

      <Section title="Delete account">
        <p className="text-sm text-gray-700">
          This deletes your account and personal data, with your progress and certificates, for good. We email you to confirm.
        </p>
        <removal.Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="delete" />
          <Input
            label="Password"
            name="password"
            type="password"
            required
            autoComplete="current-password"
            error={errorsOf(removal).password}
          />
          <button
            type="submit"
            disabled={removal.state !== 'idle'}
            className="rounded-lg border border-red-700 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:opacity-60"
          >
            Delete my account
          </button>
        </removal.Form>
      </Section>
    </div>
  );
}
