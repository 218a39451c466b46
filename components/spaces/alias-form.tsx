'use client';
// Sets an alias (a named preview address) on a version, as `atrium push
// --alias` does: a new name creates it, an existing one moves.
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Field, SelectField } from '@/components/ui/field.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

export function AliasForm({ spaceId, versions, version }: { spaceId: string; versions: number[]; version: number }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, error, run } = useAction();
  const [name, setName] = useState('');
  const [target, setTarget] = useState(version);

  function submit(event: FormEvent) {
    event.preventDefault();
    const alias = name.trim().toLowerCase();
    void run(
      () => web.call(spacesApi.setAlias, { params: { id: spaceId, name: alias }, body: { version: target } }),
      (set) => {
        toast({ message: `${set.name} now serves version ${set.version}.` });
        setName('');
        router.refresh();
      },
    );
  }

  return (
    <form onSubmit={submit} className="mt-4 space-y-2" aria-label="Set an alias">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-40 flex-1">
          <Field label="Alias name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={30} placeholder="pr-42" autoComplete="off" spellCheck={false} />
        </div>
        <SelectField label="Version" value={target} onChange={(e) => setTarget(Number(e.target.value))}>
          {versions.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
        <Button type="submit" disabled={busy}>
          {busy ? 'Setting…' : 'Set alias'}
        </Button>
      </div>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </form>
  );
}
