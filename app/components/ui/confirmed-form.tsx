import type { ReactNode } from 'react';
import type { useFetcher } from 'react-router';

/**
 * A form that cannot be undone: it asks first (window.confirm), then posts its hidden fields
 * through the given fetcher, so the page stays where it is.
 */
export function ConfirmedForm({
  fetcher,
  question,
  fields,
  children,
}: {
  fetcher: ReturnType<typeof useFetcher>;
  question: string;
  fields: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <fetcher.Form
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(question)) event.preventDefault();
      }}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </fetcher.Form>
  );
}
