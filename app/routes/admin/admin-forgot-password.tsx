import { useActionData } from 'react-router';
import { PasswordResetRequest } from '../../../common/account.contract.ts';
import { BRAND_NAME } from '../../../common/brand.ts';
import { AdminCard } from '../../components/admin/admin-card.tsx';
import { ForgotPasswordForm } from '../../components/auth/password-reset-forms.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import { useSubmitting } from '../../lib/use-form-feedback.ts';
import type { Route } from './+types/admin-forgot-password';

export const meta = () => pageMeta({ title: 'Admin password reset', description: `${BRAND_NAME} administrator password reset.` });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(PasswordResetRequest, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const asked = await attempt(() => services.account.requestStaffPasswordReset(viewer, form.data.email));
  if (!asked.ok) return asked.refusal;
  return { ok: true as const, message: asked.value.message };
}

export default function AdminForgotPasswordPage() {
  return (
    <AdminCard title="Reset your password">
      <ForgotPasswordForm result={useActionData<typeof action>()} busy={useSubmitting('/admin/forgot-password')} loginPath="/admin/login" />
    </AdminCard>
  );
}
