import { Link, useLocation } from 'react-router';

/**
 * 'First page' and 'Next page' under a list read a page at a time: plain links that keep the page's
 * other parameters (a search, a tab), so paging works without JavaScript. `param` is the list's own
 * cursor parameter, so two lists on one page page apart.
 */
export function Pager({ param, next, label = 'Next page' }: { param: string; next: string | null; label?: string }) {
  const { search } = useLocation();
  const current = new URLSearchParams(search);
  const onFirstPage = !current.has(param);
  if (onFirstPage && !next) return null;
  const withCursor = (cursor: string | null) => {
    const params = new URLSearchParams(current);
    if (cursor) params.set(param, cursor);
    else params.delete(param);
    const text = params.toString();
    return text ? `?${text}` : '?';
  };
  return (
    <nav aria-label="Pages" className="mt-3 flex items-center justify-between gap-4 text-sm font-semibold">
      {onFirstPage ? (
        <span />
      ) : (
        <Link to={withCursor(null)} className="inline-flex min-h-11 items-center text-brand-800 hover:text-brand-600">
          ← First page
        </Link>
      )}
      {next ? (
        <Link to={withCursor(next)} rel="next" className="inline-flex min-h-11 items-center text-brand-800 hover:text-brand-600">
          {label} →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
