'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { CopyField } from '@/components/ui/copy-button.tsx';
import { CheckboxField, Field } from '@/components/ui/field.tsx';
import { FormFooter } from '@/components/ui/form-footer.tsx';
import { WEBHOOK_EVENT_LABELS, webhooksApi, type WebhookEventName } from '@/lib/schemas/webhooks.ts';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

/** Registers an endpoint; its signing secret is shown once, to copy. */
export function CreateWebhookForm({ slug, events }: { slug: string; events: WebhookEventName[] }) {
  const router = useRouter();
  const { busy, error, run } = useAction();
  const [secret, setSecret] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const chosen = events.filter((name) => data.get(`event:${name}`) === 'on');
    const description = String(data.get('description')).trim();
    run(
      () => web.call(webhooksApi.create, { params: { slug }, body: { url: String(data.get('url')).trim(), events: chosen, ...(description && { description }) } }),
      (created) => {
        setSecret(created.secret);
        form.reset();
        router.refresh();
      },
    );
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2">
        <Field label="Endpoint URL" name="url" type="url" required placeholder="https://ci.example.com/atrium" autoComplete="off" />
        <Field label="Description (optional)" name="description" maxLength={200} autoComplete="off" />
        <fieldset className="sm:col-span-2">
          <legend className="mb-1 text-sm font-medium">Events</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {events.map((name) => (
              <CheckboxField key={name} label={WEBHOOK_EVENT_LABELS[name]} hint={<code>{name}</code>} name={`event:${name}`} defaultChecked={name === 'version.committed'} />
            ))}
          </div>
        </fieldset>
        <FormFooter busy={busy} label="Add webhook" busyLabel="Adding…" error={error} columns={2} />
      </form>
      {secret ? (
        <div className="rounded-md border border-green-300 bg-green-50 p-4 dark:border-green-800 dark:bg-green-950" role="status" aria-label="Signing secret">
          <p className="mb-2 text-sm font-medium text-green-900 dark:text-green-100">Copy the signing secret now: it is shown only once.</p>
          <CopyField value={secret} label="Signing secret" />
        </div>
      ) : null}
    </div>
  );
}
