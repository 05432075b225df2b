import { TokenInput } from '../../../common/account.contract.ts';
import { LinkOutcome } from '../../components/account/link-outcome.tsx';
import { attempt } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/verify-email';

export const meta = () => pageMeta({ title: 'Confirm your email', description: 'Confirm the email address of your RealtyPocket account.' });

// The link in the welcome email: opening it confirms the address (it works once).
export async function loader({ request, context }: Route.LoaderArgs) {
  const input = TokenInput.safeParse({ token: new URL(request.url).searchParams.get('token') ?? '' });
  if (!input.success) return { ok: false, message: 'This confirmation link is not valid.' };
  const verified = await attempt(() => pageServices(context).services.account.verifyEmail(input.data.token));
  return verified.ok
    ? { ok: true, message: 'Thank you: your email address is confirmed.' }
    : { ok: false, message: verified.refusal.data.formError ?? '' };
}

export default function VerifyEmailPage({ loaderData }: Route.ComponentProps) {
  return <LinkOutcome {...loaderData} title="Email confirmation" next={{ to: '/dashboard', label: 'Go to your dashboard' }} />;
}
