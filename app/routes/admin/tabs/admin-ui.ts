export const adminInput =
  'mt-1 w-full rounded-lg border border-gray-300 px-3 py-2 text-base font-normal focus:border-brand-700 focus:outline-none';
export const adminPrimary =
  'rounded-lg bg-brand-800 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60';

/** GET from the admin API with the staff cookie; null (logged) when it fails, as SPEC 8 asks for lists. */
export async function getJson<T>(path: string): Promise<T | null> {
  try {
    const response = await fetch(path, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as T;
  } catch (error) {
    console.warn(`Could not load ${path}`, error);
    return null;
  }
}
