import { useEffect } from 'react';

interface FetcherLike {
  state: 'idle' | 'loading' | 'submitting';
  data: unknown;
}

/**
 * SPEC 8 admin alerts: a success alert when the save was accepted, an error alert when the request
 * itself failed (the route's clientAction reports it). A refusal from the server shows nothing but
 * is logged (SPEC 8: "A non-success response shows nothing").
 */
export function useActionAlerts(
  fetcher: FetcherLike,
  messages: { success: (data: { ok: true }) => string; networkError: string; onSuccess?: () => void },
) {
  const { state, data } = fetcher;
  const { success, networkError, onSuccess } = messages;
  useEffect(() => {
    if (state !== 'idle' || !isObject(data)) return;
    if (data.ok === true) {
      onSuccess?.();
      window.alert(success(data as { ok: true }));
    } else if (data.requestFailed === true) window.alert(networkError);
    else console.warn('The server refused the change:', data);
    // Each answer is alerted once: `data` changes identity with every answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, data]);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
