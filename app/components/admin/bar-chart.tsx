/**
 * A small bar chart drawn with CSS: one bar per item, its height the share of the largest value.
 * The numbers are in the markup as a list, so screen readers and text browsers read them too.
 */
export function BarChart({ title, items }: { title: string; items: { label: string; value: number }[] }) {
  const largest = Math.max(1, ...items.map((item) => item.value));
  return (
    <figure className="rounded-xl border border-gray-200 bg-white p-4">
      <figcaption className="text-sm font-semibold text-gray-900">{title}</figcaption>
      <ol className="mt-3 flex h-32 items-end gap-1" aria-label={title}>
        {items.map((item) => (
          <li
            key={item.label}
            className="flex h-full min-w-0 flex-1 flex-col items-center justify-end"
            title={`${item.label}: ${item.value}`}
          >
            <span className="text-[10px] text-gray-600">{item.value}</span>
            <span
              className="w-full rounded-t bg-brand-700"
              style={{ height: `${(item.value / largest) * 100}%`, minHeight: item.value > 0 ? 2 : 0 }}
            />
            <span className="sr-only">{item.label}</span>
          </li>
        ))}
      </ol>
      <p className="mt-1 flex justify-between text-[10px] text-gray-500" aria-hidden="true">
        <span>{items[0]?.label}</span>
        <span>{items.at(-1)?.label}</span>
      </p>
    </figure>
  );
}
