import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { BlockButton } from '@/components/profile/block-button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { publicProfile } from '@/lib/accounts/profile.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { orNotFound } from '@/lib/web/page-data.ts';

export const metadata: Metadata = { title: 'Profile' };
export const dynamic = 'force-dynamic';

/** Another person as the signed-in viewer sees them: name, handle, shared workspaces, Block. */
export default async function ProfilePage({ params }: { params: Promise<{ handle: string }> }) {
  const { handle } = await params;
  const caller = await requirePageCaller(`/u/${encodeURIComponent(handle)}`);
  const profile = await orNotFound(publicProfile(caller, handle));
  const { user } = profile;
  return (
    <Page actor={caller.actor} title={user.name ?? `@${user.handle}`} crumbs={[{ label: 'Dashboard', href: '/' }, { label: `@${user.handle}` }]}>
      <div className="max-w-2xl space-y-6">
        <Card label="Person">
          <p className="text-lg">
            {user.name ? <span className="font-medium">{user.name} </span> : null}
            <span className="text-muted">@{user.handle}</span>
            {profile.self ? <span className="text-muted"> (you)</span> : null}
          </p>
          {profile.self ? (
            <p className="mt-3 text-sm">
              <a href="/settings" className="text-link underline">
                Change your name or handle
              </a>
            </p>
          ) : (
            <div className="mt-4">
              <BlockButton userId={user.id} handle={user.handle} blocked={profile.blocked} />
            </div>
          )}
        </Card>
        {profile.self ? null : (
          <Card title="Workspaces you share">
            {profile.shared.length === 0 ? (
              <EmptyState>You share no workspace with @{user.handle}.</EmptyState>
            ) : (
              <ul aria-label="Workspaces you share" className="space-y-1 text-sm">
                {profile.shared.map((w) => (
                  <li key={w.slug}>
                    <a href={`/w/${w.slug}`} className="text-link underline">
                      {w.name}
                    </a>{' '}
                    <span className="text-muted">/{w.slug}</span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        )}
      </div>
    </Page>
  );
}
