import { useActionData } from 'react-router';
import { PasswordResetConfirm } from '../../../common/account.contract.ts';
import { BRAND_NAME } from '../../../common/brand.ts';
import { AdminCard } from '../../components/admin/admin-card.tsx';
import { ResetPasswordForm } from '../../components/auth/password-reset-forms.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageServices } from '../../lib/page-context.ts';
import { useSubmitting } from '../../lib/use-form-feedback.ts';
import type { Route } from './+types/admin-reset-password';

export const meta = () => pageMeta({ title: 'Choose a new admin password', description: `${BRAND_NAME} administrator password reset.` });

export const loader = ({ request }: Route.LoaderArgs) => ({ token: new URL(request.url).searchParams.get('token') ?? '' });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(PasswordResetConfirm, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const reset = await attempt(() => services.account.resetStaffPassword(viewer, form.data));
  if (!reset.ok) return reset.refusal;
  return { ok: true as const };
}

export default function AdminResetPasswordPage({ loaderData }: Route.ComponentProps) {
  return (
    <AdminCard title="Choose a new password">
      <ResetPasswordForm
        token={loaderData.token}
        result={useActionData<typeof action>()}
        busy={useSubmitting('/admin/reset-password')}
        loginPath="/admin/login"
      />
    </AdminCard>
  );
}
