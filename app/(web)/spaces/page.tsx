import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { SpaceGrid } from '@/components/dashboard/space-grid.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/card.tsx';
import { requirePageCaller } from '@/server/http/session.ts';
import { dashboard } from '@/lib/spaces/overview.ts';

export const metadata: Metadata = { title: 'Spaces' };
export const dynamic = 'force-dynamic';

export default async function AllSpacesPage() {
  const caller = await requirePageCaller('/spaces');
  const { workspaces, spaces } = await dashboard(caller, null);
  return (
    <Page actor={caller.actor} title="Spaces" crumbs={[{ label: 'Dashboard', href: '/' }, { label: 'Spaces' }]}>
      {workspaces.map((w) => {
        const here = spaces.filter((s) => s.workspace.id === w.id);
        return (
          <section key={w.id} aria-labelledby={`ws-${w.id}`} className="mb-8">
            <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
              <h2 id={`ws-${w.id}`} className="text-lg font-semibold">
                <a href={`/w/${w.slug}`} className="hover:underline">
                  {w.name}
                </a>
              </h2>
              <ButtonLink href={`/w/${w.slug}/spaces`} variant="secondary" size="sm">
                New space in {w.name}
              </ButtonLink>
            </div>
            {here.length ? (
              <SpaceGrid spaces={here} label={`Spaces in ${w.name}`} />
            ) : (
              <EmptyState action={<ButtonLink href={`/w/${w.slug}/spaces`} size="sm">Create a space</ButtonLink>}>No spaces in {w.name} yet.</EmptyState>
            )}
          </section>
        );
      })}
    </Page>
  );
}
