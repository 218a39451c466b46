import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

// Inputs show the same focus ring as buttons; a hint is the field's
// description (aria-describedby), not part of its label.
export const control =
  'mt-1 block w-full min-w-0 rounded-md border border-slate-300 bg-surface px-3 py-2 text-sm text-slate-900 placeholder:text-muted focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:text-slate-100 dark:focus-visible:outline-indigo-300';

const labelClass = 'block text-sm font-medium text-slate-800 dark:text-slate-200';
const hintClass = 'mt-1 block text-xs font-normal text-muted';
const errorClass = 'mt-1 block text-xs text-danger';

function Described({ id, hint, error }: { id: string; hint?: ReactNode; error?: string | null }) {
  if (error) return <span id={id} className={errorClass}>{error}</span>;
  if (hint) return <span id={id} className={hintClass}>{hint}</span>;
  return null;
}

/** A labelled input with an optional hint (its description) or error below it. */
export function Field({ label, hint, error, id, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode; error?: string | null }) {
  const auto = useId();
  const inputId = id ?? auto;
  const describedBy = hint || error ? `${inputId}-hint` : undefined;
  return (
    <div>
      <label htmlFor={inputId} className={labelClass}>
        {label}
      </label>
      <input id={inputId} className={control} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
      <Described id={`${inputId}-hint`} hint={hint} error={error} />
    </div>
  );
}

/** A labelled multi-line input. */
export function TextAreaField({ label, hint, id, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: ReactNode }) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div>
      <label htmlFor={inputId} className={labelClass}>
        {label}
      </label>
      <textarea id={inputId} className={control} aria-describedby={hint ? `${inputId}-hint` : undefined} {...props} />
      <Described id={`${inputId}-hint`} hint={hint} />
    </div>
  );
}

/** A labelled native select: keyboard, screen readers and phones' pickers work as people expect. */
export function SelectField({ label, hint, children, id, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; hint?: ReactNode }) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div>
      <label htmlFor={inputId} className={labelClass}>
        {label}
      </label>
      <select id={inputId} className={control} aria-describedby={hint ? `${inputId}-hint` : undefined} {...props}>
        {children}
      </select>
      <Described id={`${inputId}-hint`} hint={hint} />
    </div>
  );
}

/** A checkbox with its label beside it and an optional description. */
export function CheckboxField({ label, hint, id, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className="flex items-start gap-2">
      <input id={inputId} type="checkbox" className="mt-0.5 size-4 accent-brand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand" aria-describedby={hint ? `${inputId}-hint` : undefined} {...props} />
      <div>
        <label htmlFor={inputId} className="text-sm text-slate-800 dark:text-slate-200">
          {label}
        </label>
        <Described id={`${inputId}-hint`} hint={hint} />
      </div>
    </div>
  );
}
