import type { RequestServices } from '#request-context';

/** Loads a list through the API for server rendering; null when it failed, so the browser retries. */
export async function loadList<T>(services: RequestServices, path: string): Promise<T[] | null> {
  const response = await services.api<T[]>(path);
  return response.ok && Array.isArray(response.data) ? response.data : null;
}
