import { Form, Link, redirect, useActionData, useLocation } from 'react-router';
import { LoginInput } from '../../../common/auth.contract.ts';
import { AuthCard, OrDivider } from '../../components/auth/auth-card.tsx';
import { NoScriptFormError } from '../../components/auth/form-error.tsx';
import { GoogleButton } from '../../components/auth/google-button.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/field.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { chosenPlan, continueToCheckout } from '../../lib/checkout.ts';
import { teamJoinPageOf } from '../../lib/team-join.ts';
import { pageServices, pageSession, redirectSignedInMember } from '../../lib/page-context.ts';
import { useErrorToast, useSubmitting } from '../../lib/use-form-feedback.ts';
import type { Route } from './+types/login';

export const meta = () => pageMeta({ title: 'Login', description: 'Sign in to your RealtyPocket account.', path: '/login' });

export const loader = ({ context }: Route.LoaderArgs) => redirectSignedInMember(context);

// SPEC 4: success starts the session (an HttpOnly cookie), shows a toast and goes to /dashboard.
export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(LoginInput, request);
  if (!form.ok) return invalid(form);
  const session = pageSession(context);
  const signedIn = await attempt(() => session.signIn(form.data));
  if (!signedIn.ok) return signedIn.refusal;
  // A plan chosen on the pricing page before signing in: on to paying for it.
  const plan = chosenPlan(request);
  if (plan) await continueToCheckout(context, { ...pageServices(context).viewer, member: signedIn.value }, plan);
  session.flash({ type: 'success', message: 'Welcome back!' });
  // Back to the team invitation they were about to accept.
  return redirect(teamJoinPageOf(request) ?? '/dashboard');
}

export default function LoginPage() {
  const result = useActionData<typeof action>();
  const { search } = useLocation();
  const busy = useSubmitting('/login');
  useErrorToast(result, 'Invalid credentials');
  const errors = result && !result.ok ? result.fieldErrors : {};

  return (
    <AuthCard title="Welcome Back" subtitle="Sign in to continue your learning journey">
      <Form method="post" className="space-y-5">
        <NoScriptFormError message={result && !result.ok ? result.formError : null} />
        <Input label="Email" name="email" type="email" required autoComplete="email" placeholder="you@example.com" error={errors.email} />
        <Input
          label="Password"
          name="password"
          type="password"
          required
          autoComplete="current-password"
          placeholder="••••••••"
          error={errors.password}
        />
        <div className="text-right">
          <Link to="/forgot-password" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-800 hover:text-brand-600">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" size="block" disabled={busy}>
          {busy ? 'Signing in...' : 'Sign In'}
        </Button>
      </Form>
      <OrDivider />
      <GoogleButton label="Sign in with Google" />
      <p className="mt-6 text-center text-sm text-gray-600">
        Don't have an account?{' '}
        <Link to={`/signup${search}`} className="font-semibold text-brand-800 hover:text-brand-600">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
