import { useEffect } from 'react';

/** A fetcher of an action whose answers say `ok` (the route's `useFetcher<typeof action>()`). */
interface FetcherLike<Data> {
  state: 'idle' | 'loading' | 'submitting';
  data: Data | undefined;
}

/** The answers of an action that say the change was accepted. */
type Accepted<Data> = Extract<Data, { ok: true }>;

const accepted = <Data extends { ok: boolean }>(data: Data): data is Accepted<Data> => data.ok;

/**
 * SPEC 8 admin alerts: a success alert when the save was accepted, an error alert when the request
 * itself failed (the route's clientAction reports it). A refusal from the server shows nothing but
 * is logged (SPEC 8: "A non-success response shows nothing").
 */
export function useActionAlerts<Data extends { ok: boolean }>(
  fetcher: FetcherLike<Data>,
  messages: { success: (data: Accepted<Data>) => string; networkError: string; onSuccess?: () => void },
) {
  const { state, data } = fetcher;
  const { success, networkError, onSuccess } = messages;
  useEffect(() => {
    if (state !== 'idle' || !data) return;
    if (accepted(data)) {
      onSuccess?.();
      window.alert(success(data));
    } else if ('requestFailed' in data && data.requestFailed === true) window.alert(networkError);
    else console.warn('The server refused the change:', data);
    // Each answer is alerted once: `data` changes identity with every answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, data]);
}
