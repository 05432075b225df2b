import type { ReactNode } from 'react';

/** SPEC 4 "Lists": the counter and the results, or the empty text (the layout shows the loading text). */
export function ListResults({ count, noun, emptyText, children }: { count: number; noun: string; emptyText: string; children: ReactNode }) {
  return (
    <>
      <p className="mt-6 text-sm text-gray-600" aria-live="polite">
        Showing {count} {noun}(s)
      </p>
      {count === 0 ? (
        <p className="py-16 text-center text-gray-500">{emptyText}</p>
      ) : (
        <div className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">{children}</div>
      )}
    </>
  );
}
