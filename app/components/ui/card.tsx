import type { HTMLAttributes } from 'react';

/** The classes of the white rounded panel, for elements that cannot be a <Card> (a <figure>). */
export const cardClass = (className?: string) => `rounded-2xl border border-gray-200 bg-white p-5 shadow-sm ${className ?? ''}`;

/** The white rounded panel used for cards, forms and dashboard sections. */
export function Card({
  className,
  as: Tag = 'div',
  ...props
}: HTMLAttributes<HTMLElement> & { as?: 'div' | 'section' | 'article' | 'aside' | 'li' }) {
  return <Tag className={cardClass(className)} {...props} />;
}
