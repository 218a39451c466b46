import type { Metadata } from 'next';
import { SettingsFrame } from '@/components/settings-frame.tsx';
import { Card } from '@/components/ui/card.tsx';
import { accountDeletionPlan } from '@/lib/accounts/deletion.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { DeleteAccountForm } from './delete-form.tsx';

export const metadata: Metadata = { title: 'Delete account' };
export const dynamic = 'force-dynamic';

type Item = { id: string; name: string; slug: string; heir?: string };

function WorkspaceList({ label, heading, items }: { label: string; heading: string; items: Item[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-label={label}>
      <h3 className="font-medium">{heading}</h3>
      <ul className="mt-1 list-disc pl-6">
        {items.map((w) => (
          <li key={w.id}>
            {w.name} <span className="text-muted">/{w.slug}</span>
            {w.heir ? ` → @${w.heir}` : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default async function DeleteAccountPage() {
  const caller = await requirePageCaller('/settings/delete');
  const { actor } = caller;
  const plan = await accountDeletionPlan(actor.user.id);
  return (
    <SettingsFrame actor={actor} current="/settings/delete">
      <Card title="Delete account">
        <div className="mb-6 space-y-4 text-sm">
          <p>Deleting your account cannot be undone. It signs you out everywhere and removes your API tokens.</p>
          <WorkspaceList label="Deleted" heading="Deleted with everything in them (nobody else is a member):" items={plan.deleted} />
          <WorkspaceList
            label="Passed on"
            heading="Shared workspaces you own pass to their earliest other member, who becomes owner:"
            items={plan.transferred.map(({ workspace, to }) => ({ ...workspace, heir: to.handle }))}
          />
          <WorkspaceList label="Left" heading="Shared workspaces you leave; they stay as they are:" items={plan.left} />
          <p>What you wrote in shared workspaces (comments, chat) stays, shown as written by &ldquo;Deleted user&rdquo;.</p>
        </div>
        <DeleteAccountForm handle={actor.user.handle} />
      </Card>
    </SettingsFrame>
  );
}
