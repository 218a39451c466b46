import type { Metadata } from 'next';
import { DatabasePanel } from '@/components/spacedb/database-panel.tsx';
import { spacePage } from '@/app/(web)/spaces/[id]/space-page.ts';

export const metadata: Metadata = { title: 'Database' };
export const dynamic = 'force-dynamic';

export default async function DatabasePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { space } = await spacePage(id);
  return <DatabasePanel id={id} permissions={space.permissions} />;
}
