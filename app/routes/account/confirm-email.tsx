import { useActionData } from 'react-router';
import { TokenInput } from '../../../common/account.contract.ts';
import { LinkConfirmation } from '../../components/account/link-confirmation.tsx';
import { attempt, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/confirm-email';

export const meta = () =>
  pageMeta({ title: 'Confirm your new email', description: 'Confirm the new email address of your RealtyPocket account.' });

const INVALID = 'This confirmation link is not valid.';

// The link sent to a new address opens this page; its button moves the account to that address.
export const loader = ({ request }: Route.LoaderArgs) => ({ token: new URL(request.url).searchParams.get('token') ?? '' });

export async function action({ request, context }: Route.ActionArgs) {
  const input = await parseForm(TokenInput, request);
  if (!input.ok) return { ok: false, message: INVALID };
  const { services, viewer } = pageServices(context);
  const changed = await attempt(() => services.account.confirmEmailChange(viewer, input.data.token));
  return changed.ok
    ? { ok: true, message: 'Your account now uses this email address. Your other devices were signed out.' }
    : { ok: false, message: changed.refusal.data.formError ?? INVALID };
}

export default function ConfirmEmailPage({ loaderData }: Route.ComponentProps) {
  return (
    <LinkConfirmation
      token={loaderData.token}
      title="New email address"
      explanation="Use this address for your account from now on: sign-in, receipts and every message."
      button="Use this email address"
      outcome={useActionData<typeof action>()}
      next={{ to: '/account', label: 'Go to your account' }}
    />
  );
}
