import { useEffect, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import {
  DIGESTS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KIND_INFO,
  NOTIFICATION_KINDS,
  NotificationPreferences,
} from '../../../common/notifications.contract.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Select } from '../../components/ui/field.tsx';
import { attempt, readForm, refusedBy, unreadableForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices } from '../../lib/page-context.ts';
import { useResultToast } from '../../lib/use-result-toast.ts';
import type { Route } from './+types/settings';

// How each kind of notification reaches the member: on the site (the bell), by email, by push on
// their devices, or not at all; and a daily or weekly digest of the community instead of one email
// per reply. Saved with a plain form (no JavaScript needed); push needs the browser's permission.

export const meta = () =>
  pageMeta({ title: 'Notification settings', description: 'Choose how you hear about replies, sessions and more.' });

export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer } = memberPageServices(context);
  return { settings: await services.notifications.settings(viewer) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = memberPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const input = NotificationPreferences.safeParse({
    kinds: Object.fromEntries(
      NOTIFICATION_KINDS.map((kind) => [
        kind,
        Object.fromEntries(NOTIFICATION_CHANNELS.map((channel) => [channel, form.get(`${kind}.${channel}`) === 'on'])),
      ]),
    ),
    digest: form.get('digest'),
  });
  if (!input.success) return refusedBy(input.error);
  const saved = await attempt(() => services.notifications.savePreferences(viewer, input.data));
  return saved.ok ? { ok: true as const, message: 'Your notification settings are saved.' } : saved.refusal;
}

const CHANNEL_LABEL = { site: 'On the site', email: 'By email', push: 'By push' } as const;
const DIGEST_LABEL = {
  off: 'No digest: an email for each',
  daily: 'A daily digest (8 in the morning)',
  weekly: 'A weekly digest (Monday, 8 in the morning)',
};

/** The base64url VAPID key as the bytes `pushManager.subscribe` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

type PushState = 'unknown' | 'unsupported' | 'off' | 'on' | 'denied' | 'working';

/** Whether this browser takes push notifications, and whether it does for this site now. */
async function devicePushState(): Promise<PushState> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  try {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.pushManager.getSubscription()) ? 'on' : 'off';
  } catch {
    return 'off';
  }
}

/** Push on this device: asks the browser's permission, subscribes it, and tells the site (or stops). */
function PushOnThisDevice({ publicKey, devices }: { publicKey: string; devices: number }) {
  const [state, setState] = useState<PushState>('unknown');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    void devicePushState().then(setState);
  }, []);

  async function turnOn() {
    setState('working');
    setProblem(null);
    try {
      const registration = await navigator.serviceWorker.ready;
      const subscribe = () => registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      const register = (subscription: PushSubscription) =>
        fetch('/api/push/subscriptions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(subscription.toJSON()),
        });
      const subscription = await subscribe();
      let answer = await register(subscription);
      if (answer.status === 409) {
        // The browser's endpoint is still another account's (one signed in here before): a new one.
        await subscription.unsubscribe();
        answer = await register(await subscribe());
      }
      if (!answer.ok)
        throw new Error(((await answer.json().catch(() => null)) as { detail?: string } | null)?.detail ?? 'The site refused it.');
      setState('on');
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'Push notifications could not be turned on.');
      setState(Notification.permission === 'denied' ? 'denied' : 'off');
    }
  }

  async function turnOff() {
    setState('working');
    const registration = await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.getSubscription();
    if (subscription) {
      await fetch('/api/push/subscriptions', {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ endpoint: subscription.endpoint }),
      }).catch(() => undefined);
      await subscription.unsubscribe();
    }
    setState('off');
  }

  return (
    <div className="space-y-2 text-sm text-gray-700">
      <p>
        {devices === 0
          ? 'No device takes your push notifications yet.'
          : `${devices} ${devices === 1 ? 'device takes' : 'devices take'} your push notifications.`}
      </p>
      {state === 'unsupported' && (
        <p>
          This browser cannot take push notifications. On an iPhone or iPad, add the app to your Home Screen first, then open it from there.
        </p>
      )}
      {state === 'denied' && <p>Notifications are blocked for this site in your browser settings: allow them there first.</p>}
      {(state === 'off' || state === 'working') && (
        <Button type="button" size="sm" disabled={state === 'working'} onClick={() => void turnOn()}>
          Turn on push on this device
        </Button>
      )}
      {state === 'on' && (
        <Button type="button" size="sm" variant="outline" onClick={() => void turnOff()}>
          Turn off push on this device
        </Button>
      )}
      {problem && <p className="text-red-700">{problem}</p>}
    </div>
  );
}

export default function NotificationSettings({ loaderData }: Route.ComponentProps) {
  const { settings } = loaderData;
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">Notification settings</h1>
        <Link to="/notifications" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600">
          ← Notifications
        </Link>
      </div>
      <fetcher.Form method="post" className="space-y-6">
        <Card as="section" className="overflow-x-auto p-4">
          <table className="w-full text-left text-sm">
            <thead>
              <tr>
                <th scope="col" className="py-2 pr-3 font-semibold text-gray-900">
                  What
                </th>
                {NOTIFICATION_CHANNELS.map((channel) => (
                  <th key={channel} scope="col" className="px-2 py-2 text-center font-semibold text-gray-900">
                    {CHANNEL_LABEL[channel]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {NOTIFICATION_KINDS.map((kind) => (
                <tr key={kind} className="border-t border-gray-100">
                  <th scope="row" className="py-2 pr-3 font-normal text-gray-800">
                    {NOTIFICATION_KIND_INFO[kind].label}
                  </th>
                  {NOTIFICATION_CHANNELS.map((channel) => (
                    <td key={channel} className="px-2 py-1 text-center">
                      <label className="inline-flex min-h-11 min-w-11 items-center justify-center">
                        <span className="sr-only">
                          {NOTIFICATION_KIND_INFO[kind].label}: {CHANNEL_LABEL[channel]}
                        </span>
                        <input
                          type="checkbox"
                          name={`${kind}.${channel}`}
                          defaultChecked={settings.kinds[kind][channel]}
                          className="h-5 w-5"
                        />
                      </label>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card as="section" className="space-y-3 p-4">
          <h2 className="font-bold text-gray-900">Community email</h2>
          <Select
            label="Replies, mentions and likes by email"
            name="digest"
            defaultValue={settings.digest}
            options={DIGESTS.map((value) => ({ value, label: DIGEST_LABEL[value] }))}
          />
        </Card>
        <Button type="submit" disabled={fetcher.state !== 'idle'}>
          {fetcher.state === 'idle' ? 'Save settings' : 'Saving...'}
        </Button>
      </fetcher.Form>
      <Card as="section" className="space-y-3 p-4">
        <h2 className="font-bold text-gray-900">Push notifications on this device</h2>
        {settings.push.available && settings.push.public_key ? (
          <PushOnThisDevice publicKey={settings.push.public_key} devices={settings.push.devices} />
        ) : (
          <p className="text-sm text-gray-700">Push notifications are not set up on this site yet.</p>
        )}
      </Card>
    </div>
  );
}
