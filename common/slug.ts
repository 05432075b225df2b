/** Letters and digits of a title joined by dashes: an address people can read (/courses/{id}). */
export function slugOf(title: string, fallback = 'item'): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || fallback;
}
