'use client';

import { useRouter } from 'next/navigation';
import type { WorkspaceSummary } from '@/lib/schemas/workspaces.ts';

const NEW = '__new__';

/** Jumps to another of the person's workspaces, or to creating one. */
export function WorkspaceSwitcher({ workspaces, current }: { workspaces: WorkspaceSummary[]; current: string }) {
  const router = useRouter();
  return (
    <select
      aria-label="Switch workspace"
      className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
      value={current}
      onChange={(event) => router.push(event.target.value === NEW ? '/w/new' : `/w/${event.target.value}`)}
    >
      {workspaces.map((w) => (
        <option key={w.id} value={w.slug}>
          {w.name} ({w.slug})
        </option>
      ))}
      <option value={NEW}>New workspace…</option>
    </select>
  );
}
