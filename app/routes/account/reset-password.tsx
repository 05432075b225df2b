import { useActionData } from 'react-router';
import { PasswordResetConfirm } from '../../../common/account.contract.ts';
import { AuthCard } from '../../components/auth/auth-card.tsx';
import { ResetPasswordForm } from '../../components/auth/password-reset-forms.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import { useSubmitting } from '../../lib/use-form-feedback.ts';
import type { Route } from './+types/reset-password';

export const meta = () => pageMeta({ title: 'Choose a new password', description: 'Choose a new password for your RealtyPocket account.' });

export const loader = ({ request }: Route.LoaderArgs) => ({ token: new URL(request.url).searchParams.get('token') ?? '' });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(PasswordResetConfirm, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const reset = await attempt(() => services.account.resetPassword(viewer, form.data));
  if (!reset.ok) return reset.refusal;
  return { ok: true as const };
}

export default function ResetPasswordPage({ loaderData }: Route.ComponentProps) {
  return (
    <AuthCard title="Choose a new password" subtitle="Your new password works at once; every device you were signed in on is signed out.">
      <ResetPasswordForm
        token={loaderData.token}
        result={useActionData<typeof action>()}
        busy={useSubmitting('/reset-password')}
        loginPath="/login"
      />
    </AuthCard>
  );
}
