import { useEffect } from 'react';
import { useNavigation } from 'react-router';
import { toast } from './toast.tsx';
import type { FormErrors } from './forms.ts';

/** True while this page's form is being sent (to this path, whatever its query), and while the page it leads to loads. */
export function useSubmitting(formAction: string): boolean {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formAction?.split('?')[0] === formAction;
}

/** SPEC 8: a refused form shows the server's message as a toast, else the fallback text. */
export function useErrorToast(result: FormErrors | { ok: true } | undefined, fallback: string) {
  useEffect(() => {
    if (result && !result.ok) toast.error(result.formError || fallback);
  }, [result, fallback]);
}
