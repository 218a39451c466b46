import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from 'react';

// One focus ring for every control (buttons, links styled as buttons, inputs):
// visible on light and dark backgrounds.
export const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand dark:focus-visible:outline-indigo-300';

const base = `inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-md font-medium transition disabled:cursor-not-allowed disabled:opacity-50 ${focusRing}`;
const sizes = { md: 'px-4 py-2 text-sm', sm: 'px-2.5 py-1 text-xs' };
const variants = {
  primary: 'bg-brand text-white hover:bg-indigo-800 dark:bg-indigo-500 dark:hover:bg-indigo-400',
  secondary: 'border border-slate-300 bg-surface text-slate-900 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700',
  // Destructive actions: red, and behind a confirmation (components/ui/dialog.tsx).
  danger: 'bg-red-700 text-white hover:bg-red-800 dark:bg-red-600 dark:hover:bg-red-500',
  ghost: 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
};

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className = ''): string {
  return `${base} ${sizes[size]} ${variants[variant]} ${className}`;
}

export function Button({ variant = 'primary', size = 'md', className = '', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button className={buttonClass(variant, size, className)} {...props} />;
}

export function ButtonLink({ variant = 'primary', size = 'md', className = '', ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <a className={buttonClass(variant, size, className)} {...props} />;
}
