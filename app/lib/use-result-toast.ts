import { useEffect } from 'react';
import { toast } from './toast.tsx';

interface ResultFetcher {
  state: 'idle' | 'loading' | 'submitting';
  data: { ok: true; message: string } | { ok: false; formError: string | null } | undefined;
}

/** A form whose answer shows as a toast: its message when it worked, the server's reason when not. */
export function useResultToast(fetcher: ResultFetcher, fallback = 'Please check the form.') {
  const { data, state } = fetcher;
  useEffect(() => {
    if (!data || state !== 'idle') return;
    if (data.ok) toast.success(data.message);
    else toast.error(data.formError ?? fallback);
    // Each answer once: `data` changes identity with every answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, state]);
}
