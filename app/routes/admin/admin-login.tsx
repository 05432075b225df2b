import { useState, type FormEvent } from 'react';
import { redirect, useNavigate } from 'react-router';
import { requestServicesContext } from '#request-context';
import { BRAND_NAME } from '../../../common/brand.ts';
import { inputClass, submitClass } from '../../components/auth/auth-card.tsx';
import { postJson } from '../../lib/api-client.ts';
import { pageMeta } from '../../lib/meta.ts';
import type { Route } from './+types/admin-login';

export const meta = () => pageMeta({ title: 'Admin Login', description: `${BRAND_NAME} administrator sign-in.` });

export function loader({ context }: Route.LoaderArgs) {
  if (context.get(requestServicesContext).viewer.staff) throw redirect('/admin/dashboard');
  return null;
}

/** SPEC 3: adminEmail is kept in local storage for display; the session itself is an HttpOnly cookie. */
export const ADMIN_EMAIL_KEY = 'adminEmail';

export default function AdminLoginPage() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const navigate = useNavigate();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError('');
    try {
      const result = await postJson<{ token: string; email: string }>('/api/admin/login', {
        email: form.get('email'),
        password: form.get('password'),
      });
      if (!result.ok) throw new Error(result.data.detail);
      window.localStorage.setItem(ADMIN_EMAIL_KEY, result.data.email);
      await navigate('/admin/dashboard');
    } catch {
      // SPEC 8: any failure shows the same inline message.
      setError('Invalid email or password');
      setBusy(false);
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-900 to-brand-700 px-4">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-2xl">
        <h1 className="text-center text-3xl font-extrabold text-brand-800">Admin Login</h1>
        <p className="mt-2 text-center text-gray-600">{BRAND_NAME} Coaching Admin Panel</p>
        <form onSubmit={onSubmit} className="mt-8 space-y-5">
          <label className="block text-sm font-medium text-gray-700">
            Email
            <input name="email" type="email" required autoComplete="username" className={inputClass} />
          </label>
          <label className="block text-sm font-medium text-gray-700">
            Password
            <input name="password" type="password" required autoComplete="current-password" className={inputClass} />
          </label>
          {error && (
            <p role="alert" className="text-sm font-medium text-red-600">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy} className={submitClass}>
            {busy ? 'Logging in...' : 'Login'}
          </button>
        </form>
      </div>
    </main>
  );
}
