import { Form } from 'react-router';
import { Button } from './button.tsx';
import { TEXT_MAX } from '../../../common/limits.ts';

/**
 * A search over a list, as a GET form: the words go in the address (`?name=`), so the results work
 * without JavaScript, reload the same and can be shared. `keep` carries the page's other choices
 * (a space, a tab); the page's cursor is left behind, so a new search starts at its first page.
 */
export function SearchForm({
  id,
  name,
  label,
  defaultValue,
  keep = {},
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  keep?: Record<string, string>;
}) {
  return (
    <Form method="get" role="search" className="flex gap-2">
      {Object.entries(keep).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name={name}
        defaultValue={defaultValue}
        maxLength={TEXT_MAX.searchWords}
        placeholder={label}
        className="min-w-0 flex-1 rounded-lg border border-gray-300 px-3 py-2 text-sm focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-700/30"
      />
      <Button type="submit" size="sm" variant="outline">
        Search
      </Button>
    </Form>
  );
}
