import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '../../../common/limits.ts';
import { AuthCard, inputClass, OrDivider, submitClass } from '../../components/auth/auth-card.tsx';
import { GoogleButton } from '../../components/auth/google-button.tsx';
import { useAuthSubmit } from '../../components/auth/use-auth-submit.ts';
import { redirectSignedInMember } from '../../lib/guards.ts';
import { pageMeta } from '../../lib/meta.ts';
import type { Route } from './+types/signup';

export const meta = () => pageMeta({ title: 'Sign Up', description: 'Create your free RealtyPocket account.', path: '/signup' });

export const loader = ({ context }: Route.LoaderArgs) => redirectSignedInMember(context);

export default function SignupPage() {
  const { busy, onSubmit } = useAuthSubmit({
    path: '/api/auth/register',
    fields: ['name', 'email', 'password'],
    success: 'Account created successfully!',
    fallbackError: 'Failed to create account',
  });

  return (
    <AuthCard title="Start Your Journey" subtitle="Create your free account and start learning today">
      <form onSubmit={onSubmit} className="space-y-5">
        <label className="block text-sm font-medium text-gray-700">
          Full Name
          <input name="name" type="text" required maxLength={100} autoComplete="name" className={inputClass} placeholder="Jane Smith" />
        </label>
        <label className="block text-sm font-medium text-gray-700">
          Email
          <input name="email" type="email" required autoComplete="email" className={inputClass} placeholder="you@example.com" />
        </label>
        <label className="block text-sm font-medium text-gray-700">
          Password
          <input
            name="password"
            type="password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            autoComplete="new-password"
            className={inputClass}
            placeholder="••••••••"
          />
          <span className="mt-1 block text-xs text-gray-500">Must be at least {PASSWORD_MIN_LENGTH} characters</span>
        </label>
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
        <button type="submit" disabled={busy} className={submitClass}>
          {busy ? 'Creating account...' : 'Create Free Account'}
        </button>
      </form>
      <OrDivider />
      <GoogleButton label="Sign up with Google" />
      <p className="mt-6 text-center text-sm text-gray-600">
        Already have an account?{' '}
        <Link to="/login" className="font-semibold text-brand-800 hover:text-brand-600">
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}
