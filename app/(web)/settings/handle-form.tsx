'use client';

import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';
import { checkHandle } from './actions.ts';

type Check = { handle: string; problem: string | null } | null;

export function HandleForm({ current }: { current: string }) {
  const { busy: saving, error, run } = useAction();
  const [handle, setHandle] = useState(current);
  const [check, setCheck] = useState<Check>({ handle: current, problem: null });
  const [saved, setSaved] = useState(false);

  // Ask the server about the handle once typing pauses.
  useEffect(() => {
    if (handle === check?.handle) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      const problem = await checkHandle(handle);
      if (!cancelled) setCheck({ handle, problem });
    }, 250);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [handle, check?.handle]);

  const checked = check?.handle === handle;
  const hint = handle === current ? 'Your handle is your address on Atrium and your personal workspace\u2019s name.' : checked ? `@${handle} is available.` : 'Checking…';

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      await web.call(accountsApi.handle, { body: { handle } });
      setSaved(true);
    });
  }

  return (
    <form onSubmit={submit} className="max-w-sm space-y-4">
      <Field
        label="Handle"
        name="handle"
        value={handle}
        onChange={(event) => {
          setHandle(event.target.value.trim().toLowerCase());
          setSaved(false);
        }}
        autoComplete="username"
        spellCheck={false}
        hint={hint}
        error={checked ? check.problem : null}
      />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {saved ? <p role="status" className="text-sm text-green-800">Saved.</p> : null}
      <Button type="submit" disabled={saving || handle === current || !checked || check.problem !== null}>
        {saving ? 'Saving…' : 'Change handle'}
      </Button>
    </form>
  );
}
