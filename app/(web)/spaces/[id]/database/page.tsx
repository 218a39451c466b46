import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { Page } from '@/components/page.tsx';
import { DatabasePanel } from '@/components/spacedb/database-panel.tsx';
import { pageCaller } from '@/lib/auth/session.ts';
import { ApiError } from '@/lib/http/errors.ts';
import type { Space } from '@/lib/schemas/spaces.ts';
import { getSpace } from '@/lib/spaces/spaces.ts';

export const metadata: Metadata = { title: 'Database' };
export const dynamic = 'force-dynamic';

export default async function DatabasePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const caller = await pageCaller();
  let space: Space;
  try {
    space = await getSpace(caller, id);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
    if (!caller.actor) redirect(`/signin?next=${encodeURIComponent(`/spaces/${id}/database`)}`);
    notFound();
  }
  if (!space.permissions.view) notFound();
  return (
    <Page actor={caller.actor}>
      <p className="text-sm">
        <a href={`/spaces/${id}`} className="text-brand">
          ← {space.name}
        </a>
      </p>
      <h1 className="mb-6 text-2xl font-bold">Database</h1>
      <DatabasePanel id={id} permissions={space.permissions} />
    </Page>
  );
}
