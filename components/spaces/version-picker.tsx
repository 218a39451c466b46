'use client';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { control } from '@/components/ui/field.tsx';

/** Picks a version: the page follows at once (no separate "Show" button). */
export function VersionPicker({ versions, current, hrefFor }: { versions: { number: number; label: string }[]; current: number; hrefFor: Record<number, string> }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm">
      <label htmlFor="version-picker" className="shrink-0 font-medium">
        Version
      </label>
      <select
        id="version-picker"
        value={current}
        aria-busy={pending || undefined}
        onChange={(event) => start(() => router.push(hrefFor[Number(event.target.value)]))}
        className={`${control} mt-0 py-1`}
      >
        {versions.map((v) => (
          <option key={v.number} value={v.number}>
            {v.label}
          </option>
        ))}
      </select>
      {pending ? <span className="text-xs text-muted">Loading…</span> : null}
    </div>
  );
}
