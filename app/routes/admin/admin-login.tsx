import { Form, Link, redirect, useActionData } from 'react-router';
import { StaffLoginInput, TWO_FACTOR_CODE_NEEDED, TWO_FACTOR_CODE_WRONG } from '../../../common/auth.contract.ts';
import { BRAND_NAME } from '../../../common/brand.ts';
import { AdminCard } from '../../components/admin/admin-card.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/field.tsx';
import { attempt, formErrors, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { pageSession, redirectSignedInStaff } from '../../lib/page-context.ts';
import { useSubmitting } from '../../lib/use-form-feedback.ts';
import type { Route } from './+types/admin-login';
import { TEXT_MAX } from '../../../common/limits.ts';

export const meta = () => pageMeta({ title: 'Admin Login', description: `${BRAND_NAME} administrator sign-in.` });

export const loader = ({ context }: Route.LoaderArgs) => redirectSignedInStaff(context);

// SPEC 8: any failure shows the same inline message.
const LOGIN_FAILED = 'Invalid email or password';

// With two-factor sign-in on, the right password is followed by a second step: the app's code.
const CODE_STEP = new Set([TWO_FACTOR_CODE_NEEDED, TWO_FACTOR_CODE_WRONG]);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(StaffLoginInput, request);
  if (!form.ok) return formErrors(LOGIN_FAILED);
  const signedIn = await attempt(() => pageSession(context).staffSignIn(form.data));
  if (!signedIn.ok) {
    if (CODE_STEP.has(signedIn.message)) return formErrors(signedIn.message, 401, { code: signedIn.message });
    return formErrors(LOGIN_FAILED, signedIn.refusal.init?.status ?? 401);
  }
  return redirect('/admin/dashboard');
}

export default function AdminLoginPage() {
  const result = useActionData<typeof action>();
  const busy = useSubmitting('/admin/login');
  return (
    <AdminCard title="Admin Login">
      <Form method="post" className="space-y-5">
        <Input label="Email" name="email" type="email" required autoComplete="username" />
        <Input label="Password" name="password" type="password" required autoComplete="current-password" />
        {result && !result.ok && result.fieldErrors.code !== undefined && (
          <Input
            label="Code from your authenticator app"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            maxLength={TEXT_MAX.twoFactorCode}
          />
        )}
        {result && !result.ok && !busy && (
          <p role="alert" className="text-sm font-medium text-red-600">
            {result.formError}
          </p>
        )}
        <Button type="submit" size="block" disabled={busy}>
          {busy ? 'Logging in...' : 'Login'}
        </Button>
        <Link
          to="/admin/forgot-password"
          className="flex min-h-11 items-center justify-center text-sm font-medium text-brand-800 hover:text-brand-600"
        >
          Forgot password?
        </Link>
      </Form>
    </AdminCard>
  );
}
