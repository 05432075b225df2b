import { useEffect, useState } from 'react';

/**
 * A list rendered on the server from the loader. When the server could not load it (null), the
 * browser fetches it itself: loading, then results or the empty state (SPEC 4 "Lists"); a failure
 * is logged only and leaves the empty state.
 */
export function useApiList<T>(initial: T[] | null, path: string): { items: T[]; loading: boolean } {
  const [items, setItems] = useState<T[]>(initial ?? []);
  const [loading, setLoading] = useState(initial === null);
  useEffect(() => {
    if (initial !== null) {
      setItems(initial);
      setLoading(false);
      return;
    }
    let cancelled = false;
    setLoading(true);
    fetch(path, { credentials: 'same-origin' })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${path} answered ${response.status}`);
        const data = (await response.json()) as T[];
        if (!cancelled) setItems(Array.isArray(data) ? data : []);
      })
      .catch((error: unknown) => console.warn(`Could not load ${path}`, error))
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [initial, path]);
  return { items, loading };
}
