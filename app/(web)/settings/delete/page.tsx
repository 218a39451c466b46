import type { Metadata } from 'next';
import { SettingsFrame } from '@/components/settings-frame.tsx';
import { Card } from '@/components/ui/card.tsx';
import { accountDeletionPlan } from '@/lib/accounts/deletion.ts';
import { requirePageActor } from '@/lib/auth/session.ts';
import { DeleteAccountForm } from './delete-form.tsx';

export const metadata: Metadata = { title: 'Delete account' };
export const dynamic = 'force-dynamic';

export default async function DeleteAccountPage() {
  const actor = await requirePageActor('/settings/delete');
  const plan = await accountDeletionPlan(actor.user.id);
  return (
    <SettingsFrame actor={actor} current="/settings/delete">
      <Card title="Delete account">
        <div className="mb-6 space-y-4 text-sm text-slate-700">
          <p>Deleting your account cannot be undone. It signs you out everywhere and removes your API tokens.</p>
          {plan.deleted.length ? (
            <section aria-label="Deleted">
              <h3 className="font-medium">Deleted with everything in them (nobody else is a member):</h3>
              <ul className="mt-1 list-disc pl-6">
                {plan.deleted.map((w) => (
                  <li key={w.id}>
                    {w.name} <span className="text-slate-500">/{w.slug}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {plan.transferred.length ? (
            <section aria-label="Passed on">
              <h3 className="font-medium">Shared workspaces you own pass to their earliest other member, who becomes owner:</h3>
              <ul className="mt-1 list-disc pl-6">
                {plan.transferred.map(({ workspace, to }) => (
                  <li key={workspace.id}>
                    {workspace.name} <span className="text-slate-500">/{workspace.slug}</span> → @{to.handle}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {plan.left.length ? (
            <section aria-label="Left">
              <h3 className="font-medium">Shared workspaces you leave; they stay as they are:</h3>
              <ul className="mt-1 list-disc pl-6">
                {plan.left.map((w) => (
                  <li key={w.id}>
                    {w.name} <span className="text-slate-500">/{w.slug}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <p>What you wrote in shared workspaces (comments, chat) stays, shown as written by &ldquo;Deleted user&rdquo;.</p>
        </div>
        <DeleteAccountForm handle={actor.user.handle} />
      </Card>
    </SettingsFrame>
  );
}
