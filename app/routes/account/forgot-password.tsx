import { useActionData } from 'react-router';
import { PasswordResetRequest } from '../../../common/account.contract.ts';
import { AuthCard } from '../../components/auth/auth-card.tsx';
import { ForgotPasswordForm } from '../../components/auth/password-reset-forms.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import { useSubmitting } from '../../lib/use-form-feedback.ts';
import type { Route } from './+types/forgot-password';

export const meta = () => pageMeta({ title: 'Forgot password', description: 'Reset the password of your RealtyPocket account.' });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(PasswordResetRequest, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const asked = await attempt(() => services.account.requestPasswordReset(viewer, form.data.email));
  if (!asked.ok) return asked.refusal;
  return { ok: true as const, message: asked.value.message };
}

export default function ForgotPasswordPage() {
  return (
    <AuthCard title="Forgot your password?" subtitle="Enter your account's email and we will send you a link to choose a new one.">
      <ForgotPasswordForm result={useActionData<typeof action>()} busy={useSubmitting('/forgot-password')} loginPath="/login" />
    </AuthCard>
  );
}
