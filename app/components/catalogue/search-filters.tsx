/** A search box and select filters for a client-side filtered list (SPEC 4 "Lists"). */
export interface FilterSelect {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}

export function SearchFilters({
  search,
  onSearch,
  searchLabel,
  selects,
}: {
  search: string;
  onSearch: (value: string) => void;
  searchLabel: string;
  selects: FilterSelect[];
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <label className="flex-1">
        <span className="sr-only">{searchLabel}</span>
        <input
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder={searchLabel}
          className="w-full rounded-lg border border-gray-300 px-4 py-2.5 text-base focus:border-brand-700 focus:outline-none"
        />
      </label>
      {selects.map((select) => (
        <label key={select.id} className="flex flex-col text-sm text-gray-700">
          <span className="mb-1 font-medium">{select.label}</span>
          <select
            id={select.id}
            value={select.value}
            onChange={(event) => select.onChange(event.target.value)}
            className="rounded-lg border border-gray-300 bg-white px-3 py-2.5 text-base"
          >
            {select.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  );
}
