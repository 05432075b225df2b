import { useState, type FormEvent } from 'react';
import { Link, redirect, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { requestServicesContext } from '#request-context';
import { AuthCard, inputClass, submitClass } from '../../components/auth/auth-card.tsx';
import { GoogleButton } from '../../components/auth/google-button.tsx';
import { postJson } from '../../lib/api-client.ts';
import { pageMeta } from '../../lib/meta.ts';
import type { Route } from './+types/login';

export const meta = () => pageMeta({ title: 'Login', description: 'Sign in to your RealtyPocket account.', path: '/login' });

// A member who is already signed in goes straight to the dashboard.
export function loader({ context }: Route.LoaderArgs) {
  if (context.get(requestServicesContext).viewer.member) throw redirect('/dashboard');
  return null;
}

export default function LoginPage() {
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      const result = await postJson<{ token: string }>('/api/auth/login', { email: form.get('email'), password: form.get('password') });
      if (!result.ok) {
        toast.error(result.data.detail || 'Invalid credentials');
        setBusy(false);
        return;
      }
      toast.success('Welcome back!');
      // The root loader runs again after leaving this page (root shouldRevalidate), so the nav greets the member.
      await navigate('/dashboard');
    } catch {
      toast.error('Invalid credentials');
      setBusy(false);
    }
  }

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
      <div className="my-6 flex items-center gap-3 text-sm text-gray-500">
        <span className="h-px flex-1 bg-gray-200" />
        or
        <span className="h-px flex-1 bg-gray-200" />
      </div>
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
