import type { ReactNode } from 'react';
import type { FetcherWithComponents } from 'react-router';
import { Button } from '../ui/button.tsx';
import { Outcome, type Answer } from './outcome.tsx';

/**
 * An item's edit form, folded away under `summary` until staff open it, posted through the item's
 * own fetcher (with its hidden fields); its answer shows below it, unless the item shows its
 * fetcher's answer once for several such forms (`answerBelow={false}`).
 */
export function EditDetails({
  fetcher,
  summary,
  fields,
  submitLabel,
  answerBelow = true,
  children,
}: {
  /** The item's `useFetcher<typeof action>()`: any action whose answers are an `Answer`. */
  fetcher: FetcherWithComponents<Answer>;
  summary: string;
  fields: Record<string, string>;
  submitLabel: string;
  answerBelow?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm font-semibold text-brand-800">{summary}</summary>
        <fetcher.Form method="post" className="mt-3 space-y-3">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {children}
          <Button type="submit" size="sm" disabled={fetcher.state !== 'idle'}>
            {submitLabel}
          </Button>
        </fetcher.Form>
      </details>
      {answerBelow && (
        <div className="mt-2">
          <Outcome answer={fetcher.data} />
        </div>
      )}
    </>
  );
}
