import type { Metadata } from 'next';
import { ActionButton } from '@/components/ui/action-button.tsx';
import { Card, EmptyState, ErrorNote } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { Time } from '@/components/ui/time.tsx';
import { DeleteButton } from '@/components/workspaces/delete-button.tsx';
import { WorkspaceFrame } from '@/components/workspaces/workspace-frame.tsx';
import { rolesThatCan, workspaceRoleCan } from '@/lib/access/capabilities.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS } from '@/lib/schemas/webhooks.ts';
import { orNotFound } from '@/lib/web/page-data.ts';
import { listDeliveries, listWebhooks } from '@/lib/webhooks/endpoints.ts';
import { getWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces.ts';
import { CreateWebhookForm } from './webhook-controls.tsx';

export const metadata: Metadata = { title: 'Webhooks' };
export const dynamic = 'force-dynamic';

const RECENT = 10;

// The same check as docs/webhooks.md's, here because a deployed server has no docs folder to point at.
const VERIFY_EXAMPLE = `import { Webhook } from 'standardwebhooks';

// secret: the whsec_… shown when the webhook was added; headers and the raw body as received.
const event = new Webhook(secret).verify(rawBody, headers); // throws if forged or older than five minutes`;

function statusText(delivery: { status: string; responseStatus: number | null; error: string | null }): string {
  if (delivery.status === 'delivered') return `Delivered (${delivery.responseStatus})`;
  const why = delivery.responseStatus !== null ? `answered ${delivery.responseStatus}` : (delivery.error ?? 'not sent yet');
  return delivery.status === 'failed' ? `Failed: ${why}` : `Pending: ${why}`;
}

export default async function WebhooksPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const caller = await requirePageCaller(`/w/${slug}/webhooks`);
  const { actor } = caller;
  const [workspace, workspaces] = await Promise.all([orNotFound(getWorkspace(caller, slug)), listWorkspaces(caller)]);
  if (!workspaceRoleCan(workspace.role, 'admin')) {
    return (
      <WorkspaceFrame actor={actor} workspace={workspace} workspaces={workspaces} tab="webhooks">
        <ErrorNote>Webhooks are managed by the {rolesThatCan('admin')} of this workspace.</ErrorNote>
      </WorkspaceFrame>
    );
  }
  const { webhooks } = await listWebhooks(caller, slug);
  const deliveries = await Promise.all(webhooks.map((hook) => listDeliveries(caller, hook.id, RECENT)));
  return (
    <WorkspaceFrame actor={actor} workspace={workspace} workspaces={workspaces} tab="webhooks">
      <Card title="New webhook">
        <p className="mb-3 text-sm text-muted">
          Atrium POSTs a signed JSON body to your HTTPS endpoint when these events happen, and retries for a day when it does not answer 2xx.
        </p>
        <details className="mb-4 text-sm">
          <summary className="cursor-pointer font-medium text-link">How to verify a delivery</summary>
          <p className="mt-2 text-muted">
            Deliveries are signed as Standard Webhooks specify (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>), so any Standard Webhooks library checks them with the signing secret.
            Ignore repeats of a <code>webhook-id</code>: a delivery may arrive twice.
          </p>
          <pre className="mt-2 overflow-x-auto rounded-md bg-slate-100 p-3 text-xs dark:bg-slate-800">{VERIFY_EXAMPLE}</pre>
        </details>
        <CreateWebhookForm slug={workspace.slug} events={[...WEBHOOK_EVENTS]} />
      </Card>
      {webhooks.length === 0 ? (
        <Card title="Webhooks">
          <EmptyState>No webhooks yet.</EmptyState>
        </Card>
      ) : (
        webhooks.map((hook, i) => (
          <Card
            key={hook.id}
            title={hook.url}
            label={`Webhook ${hook.url}`}
            actions={
              <div className="flex flex-wrap items-center gap-2">
                <ActionButton method="POST" path={`/v1/webhooks/${hook.id}/ping`} size="sm" done="A ping is on its way.">
                  Send test
                </ActionButton>
                <ActionButton method="PATCH" path={`/v1/webhooks/${hook.id}`} body={{ active: !hook.active }} size="sm" done={hook.active ? 'Paused.' : 'Resumed.'}>
                  {hook.active ? 'Pause' : 'Resume'}
                </ActionButton>
                <DeleteButton path={`/v1/webhooks/${hook.id}`} label="Delete" question="Delete this webhook and its delivery log?" done="Webhook deleted." />
              </div>
            }
          >
            <p className="mb-3 text-sm text-muted">
              {hook.active ? '' : 'Paused. '}
              {hook.description ? `${hook.description}. ` : ''}Events: {hook.events.length === WEBHOOK_EVENTS.length ? 'all' : hook.events.map((e) => WEBHOOK_EVENT_LABELS[e].toLowerCase()).join(', ')}.
            </p>
            {deliveries[i].deliveries.length === 0 ? (
              <EmptyState>No deliveries yet.</EmptyState>
            ) : (
              <Table headers={['Event', 'When', 'Status', 'Tries', 'Duration', 'Response', '']} label={`Recent deliveries to ${hook.url}`}>
                {deliveries[i].deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <Cell>
                      <details>
                        <summary className="cursor-pointer">{WEBHOOK_EVENT_LABELS[delivery.event as keyof typeof WEBHOOK_EVENT_LABELS] ?? delivery.event}</summary>
                        <pre className="mt-1 max-h-64 max-w-md overflow-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">
                          {JSON.stringify(delivery.payload, null, 2)}
                        </pre>
                      </details>
                    </Cell>
                    <Cell>
                      <Time ms={delivery.createdAt} />
                    </Cell>
                    <Cell>{statusText(delivery)}</Cell>
                    <Cell>{delivery.attempts}</Cell>
                    <Cell>{delivery.durationMs !== null ? `${delivery.durationMs.toLocaleString('en')} ms` : '—'}</Cell>
                    <Cell>
                      {delivery.responseBody ? (
                        <code className="block max-w-xs truncate text-xs" title={delivery.responseBody}>
                          {delivery.responseBody}
                        </code>
                      ) : (
                        '—'
                      )}
                    </Cell>
                    <Cell>
                      <ActionButton method="POST" path={`/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`} size="sm" done="Queued again.">
                        Redeliver
                      </ActionButton>
                    </Cell>
                  </tr>
                ))}
              </Table>
            )}
          </Card>
        ))
      )}
    </WorkspaceFrame>
  );
}
