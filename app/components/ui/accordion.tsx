import { useId, useState, type ReactNode } from 'react';

export interface AccordionItem {
  key: string;
  header: ReactNode;
  body: ReactNode;
}

/**
 * One item open at a time; clicking the open item closes it (SPEC 2: FAQ and curriculum). On a
 * visitor's plain page (no React) public/page-enhancer.js does the same for `data-accordion`.
 */
export function Accordion({ items, className }: { items: AccordionItem[]; className?: string }) {
  const [openKey, setOpenKey] = useState<string | null>(null);
  const baseId = useId();
  return (
    <div data-accordion="" className={`divide-y divide-gray-200 rounded-xl border border-gray-200 bg-white ${className ?? ''}`}>
      {items.map((item, index) => {
        const open = openKey === item.key;
        const panelId = `${baseId}-panel-${index}`;
        return (
          <div key={item.key}>
            <h3>
              <button
                type="button"
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => setOpenKey(open ? null : item.key)}
                className="flex w-full items-center justify-between gap-4 px-4 py-4 text-left font-semibold text-gray-900 hover:bg-gray-50 sm:px-6"
              >
                <span className="flex-1">{item.header}</span>
                <span aria-hidden="true" className={`text-brand-800 transition-transform ${open ? 'rotate-180' : ''}`}>
                  ▾
                </span>
              </button>
            </h3>
            <div id={panelId} role="region" hidden={!open} className="px-4 pb-5 text-gray-700 sm:px-6">
              {item.body}
            </div>
          </div>
        );
      })}
    </div>
  );
}
