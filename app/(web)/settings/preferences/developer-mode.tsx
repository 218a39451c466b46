'use client';

import { useState } from 'react';
import { ErrorNote } from '@/components/ui/card.tsx';
import { web } from '@/lib/web/api-client.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

export function DeveloperModeToggle({ initial }: { initial: boolean }) {
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function toggle(next: boolean) {
    setBusy(true);
    setError(null);
    try {
      const saved = await web.call(accountsApi.preferences, { body: { developerMode: next } });
      setOn(saved.developerMode);
    } catch (failure) {
      setError((failure as Error).message);
    }
    setBusy(false);
  }

  return (
    <div className="space-y-2">
      <label className="flex items-start gap-3 text-sm">
        <input type="checkbox" className="mt-1 size-4" checked={on} disabled={busy} onChange={(event) => toggle(event.target.checked)} />
        <span>
          <span className="font-medium">Developer mode</span>
          <span className="block text-muted">Show technical details, such as ids, where pages have them (for example token ids under API tokens).</span>
        </span>
      </label>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </div>
  );
}
