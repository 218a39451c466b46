import type { Metadata } from 'next';
import { UploadForm } from '@/components/spaces/upload-form.tsx';
import { ActionButton } from '@/components/ui/action-button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { Time } from '@/components/ui/time.tsx';
import { listUploads } from '@/lib/spaces/uploads.ts';
import { formatBytes } from '@/lib/format.ts';
import { spacePage } from '@/app/(web)/spaces/[id]/space-page.ts';

export const metadata: Metadata = { title: 'Uploads' };
export const dynamic = 'force-dynamic';

export default async function UploadsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { caller, space } = await spacePage(id);
  const uploads = await listUploads(caller, space.id);
  return (
    <Card title="Uploads" label="Uploads">
      {space.permissions.push ? <UploadForm spaceId={space.id} /> : null}
      {uploads.length ? (
        <Table headers={['Name', 'Size', 'Uploaded', 'By', '']} label="Uploaded files">
          {uploads.map((upload) => (
            <tr key={upload.id}>
              <Cell>
                <a href={`/v1/spaces/${space.id}/uploads/${upload.id}/raw`} className="text-link [overflow-wrap:anywhere]">
                  {upload.name}
                </a>
              </Cell>
              <Cell>{formatBytes(upload.size)}</Cell>
              <Cell>
                <Time ms={upload.createdAt} />
              </Cell>
              <Cell>{upload.uploadedBy ? `@${upload.uploadedBy.handle}` : 'Deleted user'}</Cell>
              <Cell>
                {space.permissions.push ? (
                  <ActionButton
                    method="DELETE"
                    path={`/v1/spaces/${space.id}/uploads/${upload.id}`}
                    variant="danger"
                    size="sm"
                    label={`Delete ${upload.name}`}
                    confirm={{ title: `Delete ${upload.name}?`, description: 'Its links stop working. This cannot be undone.', confirmLabel: 'Delete', danger: true }}
                    done={`Deleted ${upload.name}.`}
                  >
                    Delete
                  </ActionButton>
                ) : null}
              </Cell>
            </tr>
          ))}
        </Table>
      ) : (
        <EmptyState>{space.permissions.push ? 'No uploads yet. Drop a file above to attach it to this space.' : 'No uploads.'}</EmptyState>
      )}
    </Card>
  );
}
