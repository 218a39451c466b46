'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
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
  const [saved, setSaved] = useState<string | null>(null);
  const confirm = useConfirm();
  const router = useRouter();

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
    const yes = await confirm({
      title: `Change your handle to @${handle}?`,
      description: `Links that use @${current} stop working, and someone else may take it.`,
      confirmLabel: 'Change handle',
    });
    if (!yes) return;
    await run(async () => {
      await web.call(accountsApi.handle, { body: { handle } });
      setSaved(handle);
      // The header, the workspace switcher and this page's `current` follow the new handle.
      router.refresh();
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
          setSaved(null);
        }}
        autoComplete="username"
        spellCheck={false}
        hint={hint}
        error={checked ? check.problem : null}
      />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {saved ? (
        <p role="status" className="text-sm text-success">
          Your handle is now @{saved}.{' '}
          <a href={`/u/${saved}`} className="underline">
            Your profile
          </a>
        </p>
      ) : null}
      <Button type="submit" disabled={saving || handle === current || !checked || check.problem !== null}>
        {saving ? 'Saving…' : 'Change handle'}
      </Button>
    </form>
  );
}
