import { TokenInput } from '../../../common/account.contract.ts';
import { LinkOutcome } from '../../components/account/link-outcome.tsx';
import { attempt } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/confirm-email';

export const meta = () =>
  pageMeta({ title: 'Confirm your new email', description: 'Confirm the new email address of your RealtyPocket account.' });

// The link sent to a new address: opening it moves the account to that address.
export async function loader({ request, context }: Route.LoaderArgs) {
  const input = TokenInput.safeParse({ token: new URL(request.url).searchParams.get('token') ?? '' });
  if (!input.success) return { ok: false, message: 'This confirmation link is not valid.' };
  const changed = await attempt(() => pageServices(context).services.account.confirmEmailChange(input.data.token));
  return changed.ok
    ? { ok: true, message: 'Your account now uses this email address.' }
    : { ok: false, message: changed.refusal.data.formError ?? '' };
}

export default function ConfirmEmailPage({ loaderData }: Route.ComponentProps) {
  return <LinkOutcome {...loaderData} title="New email address" next={{ to: '/account', label: 'Go to your account' }} />;
}
