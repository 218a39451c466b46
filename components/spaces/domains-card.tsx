'use client';
// A space's custom domains, for its admins: add a name, see what DNS it needs,
// verify it, remove it (lib/spaces/domains.ts decides; this calls the API).
import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Card, ErrorNote } from '@/components/ui/card.tsx';
import { CopyField } from '@/components/ui/copy-button.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { Field } from '@/components/ui/field.tsx';
import { useToast } from '@/components/ui/toast.tsx';
import { spacesApi, type SpaceDomain } from '@/lib/schemas/spaces.ts';
import { web } from '@/lib/web/api-client.ts';
import { useAction } from '@/lib/web/use-action.ts';

export function DomainsCard({ spaceId, domains, siteHost }: { spaceId: string; domains: SpaceDomain[]; siteHost: string }) {
  const router = useRouter();
  const toast = useToast();
  const confirm = useConfirm();
  const { busy, error, run } = useAction();

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const hostname = String(new FormData(form).get('hostname')).trim();
    void run(
      () => web.call(spacesApi.addDomain, { params: { id: spaceId }, body: { hostname } }),
      (domain) => {
        toast({ message: `Added ${domain.hostname}. Create its TXT record, then verify it.` });
        form.reset();
        router.refresh();
      },
    );
  }
  const verify = (hostname: string) =>
    run(
      () => web.call(spacesApi.verifyDomain, { params: { id: spaceId, hostname } }),
      () => {
        toast({ message: `${hostname} now serves this space.` });
        router.refresh();
      },
    );
  async function remove(hostname: string) {
    if (!(await confirm({ title: `Remove ${hostname}?`, description: 'It stops serving this space at once.', confirmLabel: 'Remove', danger: true }))) return;
    await run(
      () => web.call(spacesApi.deleteDomain, { params: { id: spaceId, hostname } }),
      () => {
        toast({ message: `Removed ${hostname}.` });
        router.refresh();
      },
    );
  }

  return (
    <Card title="Custom domains">
      <p className="mb-3 text-sm text-muted">Serve this site at a name of yours as well, such as docs.example.com.</p>
      {domains.length ? (
        <ul aria-label="Custom domains" className="mb-4 space-y-3">
          {domains.map((domain) => (
            <li key={domain.hostname} aria-label={domain.hostname} className="rounded-md border border-line p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono [overflow-wrap:anywhere]">{domain.hostname}</span>
                <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${domain.status === 'active' ? 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300' : 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200'}`}>
                  {domain.status === 'active' ? 'Active' : 'Waiting for DNS'}
                </span>
              </div>
              {domain.status === 'pending' ? (
                <div className="mt-2 space-y-2">
                  <p>Prove the name is yours with this TXT record at your DNS host:</p>
                  <CopyField value={domain.verification.record.name} label={`the TXT record's name for ${domain.hostname}`} />
                  <CopyField value={domain.verification.record.value} label={`the TXT record's value for ${domain.hostname}`} />
                  <p>Point {domain.hostname} at this server with a CNAME record, then verify. For comparison, the site&apos;s own address is {siteHost}.</p>
                  {domain.expiresAt ? (
                    <p className="text-xs text-muted">Unverified, the claim expires on {new Date(domain.expiresAt).toISOString().slice(0, 10)}.</p>
                  ) : null}
                </div>
              ) : (
                <p className="mt-2">
                  Serving at{' '}
                  <a href={domain.url} className="text-link underline">
                    {domain.url}
                  </a>
                </p>
              )}
              <div className="mt-3 flex flex-wrap gap-2">
                {domain.status === 'pending' ? (
                  <Button size="sm" onClick={() => void verify(domain.hostname)} disabled={busy}>
                    Verify {domain.hostname}
                  </Button>
                ) : null}
                <Button size="sm" variant="secondary" onClick={() => void remove(domain.hostname)} disabled={busy}>
                  Remove {domain.hostname}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={add} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <Field label="Domain" name="hostname" required maxLength={253} placeholder="docs.example.com" autoComplete="off" spellCheck={false} />
        <Button type="submit" disabled={busy}>
          Add domain
        </Button>
      </form>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </Card>
  );
}
