import { Form, Link } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '../../../common/limits.ts';
import type { FormErrors } from '../../lib/forms.ts';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/field.tsx';

type Result = FormErrors | { ok: true; message?: string } | undefined;

/** 'Forgot password?': the email field, then the same answer whether or not the account exists. */
export function ForgotPasswordForm({ result, busy, loginPath }: { result: Result; busy: boolean; loginPath: string }) {
  if (result?.ok) {
    return (
      <div className="space-y-4">
        <p role="status" className="rounded-lg bg-green-50 px-4 py-3 text-green-800">
          {result.message}
        </p>
        <Link to={loginPath} className="flex min-h-11 items-center justify-center font-semibold text-brand-800 hover:text-brand-600">
          Back to sign in
        </Link>
      </div>
    );
  }
  return (
    <Form method="post" className="space-y-5">
      {result && !result.ok && (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
          {result.formError}
        </p>
      )}
      <Input label="Email" name="email" type="email" required autoComplete="email" placeholder="you@example.com" />
      <Button type="submit" size="block" disabled={busy}>
        {busy ? 'Sending...' : 'Send me a reset link'}
      </Button>
      <Link to={loginPath} className="flex min-h-11 items-center justify-center text-sm font-semibold text-brand-800 hover:text-brand-600">
        Back to sign in
      </Link>
    </Form>
  );
}

/** The new password, from the link in the reset email. */
export function ResetPasswordForm({ token, result, busy, loginPath }: { token: string; result: Result; busy: boolean; loginPath: string }) {
  if (result?.ok) {
    return (
      <div className="space-y-4">
        <p role="status" className="rounded-lg bg-green-50 px-4 py-3 text-green-800">
          Your password was changed. Sign in with your new password.
        </p>
        <Link to={loginPath} className="flex min-h-11 items-center justify-center font-semibold text-brand-800 hover:text-brand-600">
          Sign in
        </Link>
      </div>
    );
  }
  const errors = result && !result.ok ? result.fieldErrors : {};
  return (
    <Form method="post" className="space-y-5">
      {result && !result.ok && !errors.password && (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
          {result.formError}
        </p>
      )}
      <input type="hidden" name="token" value={token} />
      <Input
        label="New password"
        name="password"
        type="password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        autoComplete="new-password"
        error={errors.password}
      />
      <p className="text-xs text-gray-500">Must be at least {PASSWORD_MIN_LENGTH} characters</p>
      <Button type="submit" size="block" disabled={busy}>
        {busy ? 'Saving...' : 'Set new password'}
      </Button>
    </Form>
  );
}
