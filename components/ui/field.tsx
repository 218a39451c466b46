import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

const control = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-brand focus:outline-none';

/** A labelled input with an optional hint or error below it. */
export function Field({ label, hint, error, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode; error?: string | null }) {
  return (
    <label className="block text-sm font-medium">
      {label}
      <input className={control} aria-invalid={error ? true : undefined} {...props} />
      {error ? <span className="mt-1 block text-xs text-red-700">{error}</span> : hint ? <span className="mt-1 block text-xs font-normal text-slate-500">{hint}</span> : null}
    </label>
  );
}

export function SelectField({ label, children, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string }) {
  return (
    <label className="block text-sm font-medium">
      {label}
      <select className={control} {...props}>
        {children}
      </select>
    </label>
  );
}
