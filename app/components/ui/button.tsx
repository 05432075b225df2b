import type { ButtonHTMLAttributes } from 'react';
import { Link, type LinkProps } from 'react-router';

// The site's buttons: one place for their colours and sizes, for <button>s and for links that look like one.
const VARIANTS = {
  primary: 'bg-brand-800 text-white shadow hover:bg-brand-700',
  gold: 'bg-gold-400 text-brand-900 shadow hover:bg-gold-300',
  outline: 'border border-brand-800 text-brand-800 hover:bg-brand-50',
  outlineLight: 'border border-white text-white hover:bg-white/10',
  white: 'bg-white text-brand-800 hover:bg-gold-100',
  ghost: 'text-brand-800 hover:bg-brand-50',
} as const;

const SIZES = {
  // At least 44 px tall: a finger's width on a phone.
  sm: 'min-h-11 px-4 py-2 text-sm',
  md: 'px-6 py-3',
  block: 'w-full px-4 py-3',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;

export function buttonClass({
  variant = 'primary',
  size = 'md',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}) {
  return `inline-flex items-center justify-center rounded-lg font-semibold disabled:cursor-not-allowed disabled:opacity-60 ${VARIANTS[variant]} ${SIZES[size]} ${className ?? ''}`;
}

type Styled = { variant?: ButtonVariant; size?: ButtonSize };

export function Button({ variant, size, className, type = 'button', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & Styled) {
  return <button type={type} className={buttonClass({ variant, size, className })} {...props} />;
}

export function ButtonLink({ variant, size, className, ...props }: LinkProps & Styled) {
  return <Link className={buttonClass({ variant, size, className })} {...props} />;
}
