import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { DeleteSpaceZone, SpaceSettingsForm } from '@/components/spaces/space-settings-form.tsx';
import { CopyField } from '@/components/ui/copy-button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { DomainsCard } from '@/components/spaces/domains-card.tsx';
import type { SignedInCaller } from '@/lib/core/caller.ts';
import { listDomains } from '@/lib/spaces/domains.ts';
import { spacePage } from '@/app/(web)/spaces/[id]/space-page.ts';

export const metadata: Metadata = { title: 'Space settings' };
export const dynamic = 'force-dynamic';

export default async function SpaceSettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { caller, space } = await spacePage(id);
  if (!space.permissions.manage) notFound();
  const domains = space.permissions.admin && caller.actor ? await listDomains(caller as SignedInCaller, space.id) : null;
  return (
    <>
      <SpaceSettingsForm space={space} />
      <Card title="Identifiers">
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="mb-1 font-medium">Space id</dt>
            <dd>
              <CopyField value={space.id} label="the space id" />
            </dd>
          </div>
          <div>
            <dt className="mb-1 font-medium">Site address</dt>
            <dd>
              <CopyField value={space.url} label="the site address" />
            </dd>
          </div>
        </dl>
      </Card>
      {domains ? <DomainsCard spaceId={space.id} domains={domains} siteHost={new URL(space.url).host} /> : null}
      {space.permissions.admin ? <DeleteSpaceZone space={space} /> : null}
    </>
  );
}
