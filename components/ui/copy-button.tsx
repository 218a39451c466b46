'use client';
import { useState } from 'react';
import { Button } from './button.tsx';

/** Copies `value` to the clipboard and says so for two seconds. */
export function CopyButton({ value, label = 'Copy', className = '' }: { value: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      variant="secondary"
      size="sm"
      className={className}
      aria-label={copied ? 'Copied' : label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // Without clipboard permission (plain http on another host), select nothing and say so.
          return;
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      <span aria-hidden="true">{copied ? '✓' : '⧉'}</span>
      <span>{copied ? 'Copied' : 'Copy'}</span>
    </Button>
  );
}

/** A value in monospace with a copy button beside it (site addresses, ids, commands). */
export function CopyField({ value, label }: { value: string; label: string }) {
  return (
    <div className="flex min-w-0 items-center gap-2">
      <code className="min-w-0 flex-1 truncate rounded bg-slate-100 px-2 py-1 text-sm dark:bg-slate-800" title={value}>
        {value}
      </code>
      <CopyButton value={value} label={`Copy ${label}`} />
    </div>
  );
}
