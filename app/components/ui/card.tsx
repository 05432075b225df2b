import type { HTMLAttributes } from 'react';

/** The white rounded panel used for cards, forms and dashboard sections. */
export function Card({
  className,
  as: Tag = 'div',
  ...props
}: HTMLAttributes<HTMLElement> & { as?: 'div' | 'section' | 'article' | 'aside' }) {
  return <Tag className={`rounded-2xl border border-gray-200 bg-white p-5 shadow-sm ${className ?? ''}`} {...props} />;
}
