import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { postJson } from '../../lib/api-client.ts';

/**
 * Submits a sign-in or sign-up form (SPEC 4/8): busy while the request runs; on success a toast
 * and /dashboard; on failure the server's detail as a toast, else the fallback message.
 */
export function useAuthSubmit({
  path,
  fields,
  success,
  fallbackError,
}: {
  path: string;
  fields: string[];
  success: string;
  fallbackError: string;
}) {
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      const result = await postJson<{ token: string }>(path, Object.fromEntries(fields.map((field) => [field, form.get(field)])));
      if (!result.ok) {
        toast.error(result.data.detail || fallbackError);
        setBusy(false);
        return;
      }
      toast.success(success);
      // The root loader runs again after leaving this page (root shouldRevalidate), so the nav greets the member.
      await navigate('/dashboard');
    } catch {
      toast.error(fallbackError);
      setBusy(false);
    }
  }

  return { busy, onSubmit };
}
