'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Field } from '@/components/ui/field.tsx';
import { ChoiceField } from '@/components/ui/choice-field.tsx';
import { FormFooter } from '@/components/ui/form-footer.tsx';
import type { InviteLinkResult } from '@/lib/schemas/workspaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { useAction } from '@/lib/web/use-action.ts';

export function CreateInviteLinkForm({ slug, roles }: { slug: string; roles: string[] }) {
  const router = useRouter();
  const { busy, error, run } = useAction();
  const [created, setCreated] = useState<InviteLinkResult | null>(null);
  const [copied, setCopied] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const email = String(data.get('email')).trim();
    const maxUses = String(data.get('maxUses')).trim();
    run(
      () =>
        web.call(workspacesApi.createInvite, {
          params: { slug },
          body: {
          role: String(data.get('role')) as 'owner' | 'admin' | 'member' | 'viewer',
          ...(email && { email }),
          maxUses: maxUses ? Number(maxUses) : null,
          expiresInDays: Number(data.get('expiresInDays')),
          },
        }),
      (result) => {
        setCreated(result);
        setCopied(false);
        form.reset();
        router.refresh();
      },
    );
  }

  async function copy(url: string) {
    await navigator.clipboard.writeText(url);
    setCopied(true);
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2">
        <ChoiceField label="Role" name="role" choices={roles} defaultValue="member" />
        <Field
          label="Only for this e-mail (optional)"
          name="email"
          type="email"
          autoComplete="off"
          hint="Only an account with this address can use the link; it is also e-mailed there when the server can send mail."
        />
        <Field label="Maximum uses (optional)" name="maxUses" type="number" min={1} max={10000} hint="Empty: any number of people until it expires." />
        <Field label="Expires after (days)" name="expiresInDays" type="number" min={1} max={90} defaultValue={7} required />
        <FormFooter busy={busy} label="Create invite link" busyLabel="Creating…" error={error} columns={2} />
      </form>
      {created ? (
        <div className="rounded-md border border-green-300 bg-green-50 p-4 dark:border-green-800 dark:bg-green-950" role="status" aria-label="New invite link">
          <p className="text-sm font-medium text-green-900 dark:text-green-100">
            Copy the link now: it is shown only once.
            {created.emailed ? ` It was also e-mailed to ${created.invite.email}.` : ''}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <input
              readOnly
              aria-label="Invite link"
              value={created.url}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 flex-1 rounded-md border border-slate-300 bg-surface px-3 py-2 font-mono text-xs"
            />
            <Button type="button" variant="secondary" onClick={() => copy(created.url)}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
