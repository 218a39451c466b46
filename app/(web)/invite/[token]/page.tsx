import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { Card, ErrorNote } from '@/components/ui/card.tsx';
import { pageCaller } from '@/server/http/session.ts';
import { ApiError } from '@/lib/core/errors.ts';
import { formatDate } from '@/lib/web/format.ts';
import { previewInviteLink } from '@/lib/workspaces/invite-links.ts';
import { AcceptInviteButton } from './accept-invite-button.tsx';

// The link is a secret: keep it out of the Referer of anything this page loads.
export const metadata: Metadata = { title: 'Invitation', referrer: 'no-referrer' };
export const dynamic = 'force-dynamic';

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const caller = await pageCaller();
  const { actor } = caller;
  let preview;
  try {
    preview = await previewInviteLink(caller, token);
  } catch (error) {
    if (!(error instanceof ApiError) || (error.code !== 'not_found' && error.code !== 'gone')) throw error;
    return (
      <Page actor={actor} title="This invitation does not work" width="max-w-lg">
        <ErrorNote>{error.message}</ErrorNote>
        <p className="mt-4 text-sm text-muted">Ask the person who sent it for a new link.</p>
      </Page>
    );
  }
  const { workspace, invitedBy } = preview;
  const here = `/invite/${token}`;
  return (
    <Page actor={actor} title={`Join ${workspace.name}`} width="max-w-lg">
      <Card label="Invitation">
        <p>
          {invitedBy ? (
            <>
              <strong>{invitedBy.name ?? `@${invitedBy.handle}`}</strong> invited you
            </>
          ) : (
            'You are invited'
          )}{' '}
          to the workspace <strong>{workspace.name}</strong> <span className="text-muted">/{workspace.slug}</span> as{' '}
          <strong>{preview.role}</strong>.
        </p>
        <p className="mt-2 text-sm text-muted">
          {preview.memberCount} {preview.memberCount === 1 ? 'member' : 'members'} · the link works until {formatDate(preview.expiresAt)}
        </p>
        <div className="mt-6">
          {!actor ? (
            <ButtonLink href={`/signin?next=${encodeURIComponent(here)}`}>Sign in to join</ButtonLink>
          ) : preview.alreadyMember ? (
            <div className="space-y-3">
              <p>You are already a member of {workspace.name}.</p>
              <ButtonLink href={`/w/${workspace.slug}`}>Open {workspace.name}</ButtonLink>
            </div>
          ) : (
            <AcceptInviteButton token={token} workspaceName={workspace.name} />
          )}
        </div>
        {actor ? <p className="mt-4 text-xs text-muted">Signed in as @{actor.user.handle}.</p> : null}
      </Card>
    </Page>
  );
}
