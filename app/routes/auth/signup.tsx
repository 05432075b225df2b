import { useState, type FormEvent } from 'react';
import { Link, redirect, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { requestServicesContext } from '#request-context';
import { PASSWORD_MIN_LENGTH } from '../../../common/limits.ts';
import { AuthCard, inputClass, submitClass } from '../../components/auth/auth-card.tsx';
import { GoogleButton } from '../../components/auth/google-button.tsx';
import { postJson } from '../../lib/api-client.ts';
import { pageMeta } from '../../lib/meta.ts';
import type { Route } from './+types/signup';

export const meta = () => pageMeta({ title: 'Sign Up', description: 'Create your free RealtyPocket account.', path: '/signup' });

export function loader({ context }: Route.LoaderArgs) {
  if (context.get(requestServicesContext).viewer.member) throw redirect('/dashboard');
  return null;
}

export default function SignupPage() {
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      const result = await postJson<{ token: string }>('/api/auth/register', {
        name: form.get('name'),
        email: form.get('email'),
        password: form.get('password'),
      });
      if (!result.ok) {
        toast.error(result.data.detail || 'Failed to create account');
        setBusy(false);
        return;
      }
      toast.success('Account created successfully!');
      await navigate('/dashboard');
    } catch {
      toast.error('Failed to create account');
      setBusy(false);
    }
  }

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
      <div className="my-6 flex items-center gap-3 text-sm text-gray-500">
        <span className="h-px flex-1 bg-gray-200" />
        or
        <span className="h-px flex-1 bg-gray-200" />
      </div>
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
