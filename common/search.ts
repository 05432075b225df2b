/** SPEC 2 / 5: search matches title or description, case-insensitive. */
export function matchesSearch(item: { title: string; description: string }, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return item.title.toLowerCase().includes(needle) || item.description.toLowerCase().includes(needle);
}
