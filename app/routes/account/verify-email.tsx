import { useActionData } from 'react-router';
import { TokenInput } from '../../../common/account.contract.ts';
import { LinkConfirmation } from '../../components/account/link-confirmation.tsx';
import { attempt, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/verify-email';

export const meta = () => pageMeta({ title: 'Confirm your email', description: 'Confirm the email address of your RealtyPocket account.' });

const INVALID = 'This confirmation link is not valid.';

// The link in the welcome email opens this page; its button confirms the address (the link works once).
export const loader = ({ request }: Route.LoaderArgs) => ({ token: new URL(request.url).searchParams.get('token') ?? '' });

export async function action({ request, context }: Route.ActionArgs) {
  const input = await parseForm(TokenInput, request);
  if (!input.ok) return { ok: false, message: INVALID };
  const { services, viewer } = pageServices(context);
  const verified = await attempt(() => services.account.verifyEmail(viewer, input.data.token));
  return verified.ok
    ? { ok: true, message: 'Thank you: your email address is confirmed.' }
    : { ok: false, message: verified.refusal.data.formError ?? INVALID };
}

export default function VerifyEmailPage({ loaderData }: Route.ComponentProps) {
  return (
    <LinkConfirmation
      token={loaderData.token}
      title="Email confirmation"
      explanation="Confirm that this email address is yours."
      button="Confirm my email address"
      outcome={useActionData<typeof action>()}
      next={{ to: '/dashboard', label: 'Go to your dashboard' }}
    />
  );
}
