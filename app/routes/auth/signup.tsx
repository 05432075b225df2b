import { Form, Link, redirect, useActionData, useLocation } from 'react-router';
import { SignupForm } from '../../../common/auth.contract.ts';
import { planName } from '../../../common/billing.contract.ts';
import { PASSWORD_MIN_LENGTH, TEXT_MAX } from '../../../common/limits.ts';
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
import type { Route } from './+types/signup';

export const meta = () => pageMeta({ title: 'Sign Up', description: 'Create your free RealtyPocket account.', path: '/signup' });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(SignupForm, request);
  if (!form.ok) return invalid(form);
  const session = pageSession(context);
  const { name, email, password } = form.data;
  const created = await attempt(() => session.signUp({ name, email, password }));
  if (!created.ok) return created.refusal;
  session.flash({ type: 'success', message: 'Account created successfully!' });
  // A plan chosen on the pricing page: on to paying for it, now that there is an account to pay for.
  const plan = chosenPlan(request);
  if (plan && pageServices(context).services.billing.enabled) {
    await continueToCheckout(context, { ...pageServices(context).viewer, member: created.value }, plan);
  }
  // Back to the team invitation they were about to accept.
  return redirect(teamJoinPageOf(request) ?? '/dashboard');
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = pageServices(context);
  const plan = services.billing.enabled ? chosenPlan(request) : null;
  // A member who follows a plan link while signed in goes straight on to paying for it.
  if (viewer.member && plan) await continueToCheckout(context, viewer, plan);
  redirectSignedInMember(context);
  return { plan };
}

export default function SignupPage({ loaderData }: Route.ComponentProps) {
  const { plan } = loaderData;
  const { search } = useLocation();
  const result = useActionData<typeof action>();
  const busy = useSubmitting('/signup');
  useErrorToast(result, 'Failed to create account');
  const errors = result && !result.ok ? result.fieldErrors : {};

  return (
    <AuthCard title="Start Your Journey" subtitle="Create your free account and start learning today">
      {plan && (
        <p className="mb-5 rounded-lg bg-gold-100 px-4 py-3 text-sm text-gray-900" data-testid="chosen-plan">
          Next, you pay for {planName(plan)} securely with our card payment provider.
        </p>
      )}
      <Form method="post" className="space-y-5">
        <NoScriptFormError message={result && !result.ok ? result.formError : null} />
        <Input
          label="Full Name"
          name="name"
          type="text"
          required
          maxLength={TEXT_MAX.name}
          autoComplete="name"
          placeholder="Jane Smith"
          error={errors.name}
        />
        <Input label="Email" name="email" type="email" required autoComplete="email" placeholder="you@example.com" error={errors.email} />
        <div>
          <Input
            label="Password"
            name="password"
            type="password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            autoComplete="new-password"
            placeholder="••••••••"
            error={errors.password}
          />
          <p className="mt-1 text-xs text-gray-500">Must be at least {PASSWORD_MIN_LENGTH} characters</p>
        </div>
        <div>
          <label className="flex items-start gap-3 text-sm text-gray-700">
            <input name="terms" type="checkbox" required className="mt-1 h-4 w-4 accent-brand-800" />
            <span>
              I agree to the{' '}
              <Link to="/terms-of-service" className="font-semibold text-brand-800 underline">
                Terms of Service
              </Link>{' '}
              and{' '}
              <Link to="/privacy-policy" className="font-semibold text-brand-800 underline">
                Privacy Policy
              </Link>{' '}
              and confirm I am at least 18 years old
            </span>
          </label>
          {errors.terms && <p className="mt-1 text-sm text-red-700">{errors.terms}</p>}
        </div>
        <Button type="submit" size="block" disabled={busy}>
          {busy ? 'Creating account...' : 'Create Free Account'}
        </Button>
      </Form>
      <OrDivider />
      <GoogleButton label="Sign up with Google" />
      <p className="mt-6 text-center text-sm text-gray-600">
        Already have an account?{' '}
        <Link to={`/login${search}`} className="font-semibold text-brand-800 hover:text-brand-600">
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}
