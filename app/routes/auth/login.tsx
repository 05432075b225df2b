import { Link } from 'react-router';
import { AuthCard, inputClass, OrDivider, submitClass } from '../../components/auth/auth-card.tsx';
import { GoogleButton } from '../../components/auth/google-button.tsx';
import { useAuthSubmit } from '../../components/auth/use-auth-submit.ts';
import { redirectSignedInMember } from '../../lib/guards.ts';
import { pageMeta } from '../../lib/meta.ts';
import type { Route } from './+types/login';

export const meta = () => pageMeta({ title: 'Login', description: 'Sign in to your RealtyPocket account.', path: '/login' });

export const loader = ({ context }: Route.LoaderArgs) => redirectSignedInMember(context);

export default function LoginPage() {
  const { busy, onSubmit } = useAuthSubmit({
    path: '/api/auth/login',
    fields: ['email', 'password'],
    success: 'Welcome back!',
    fallbackError: 'Invalid credentials',
  });

  return (
    <AuthCard title="Welcome Back" subtitle="Sign in to continue your learning journey">
      <form onSubmit={onSubmit} className="space-y-5">
        <label className="block text-sm font-medium text-gray-700">
          Email
          <input name="email" type="email" required autoComplete="email" className={inputClass} placeholder="you@example.com" />
        </label>
        <label className="block text-sm font-medium text-gray-700">
          Password
          <input name="password" type="password" required autoComplete="current-password" className={inputClass} placeholder="••••••••" />
        </label>
        <div className="text-right">
          {/* SPEC 2: the link has no destination yet. */}
          <a
            href="#forgot-password"
            onClick={(event) => event.preventDefault()}
            className="text-sm font-medium text-brand-800 hover:text-brand-600"
          >
            Forgot password?
          </a>
        </div>
        <button type="submit" disabled={busy} className={submitClass}>
          {busy ? 'Signing in...' : 'Sign In'}
        </button>
      </form>
      <OrDivider />
      <GoogleButton label="Sign in with Google" />
      <p className="mt-6 text-center text-sm text-gray-600">
        Don't have an account?{' '}
        <Link to="/signup" className="font-semibold text-brand-800 hover:text-brand-600">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
