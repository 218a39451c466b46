import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { notFound, redirect } from 'next/navigation';
import { pageCaller } from '@/server/http/session.ts';
import { ApiError } from '@/lib/core/errors.ts';
import { siteUrl } from '@/lib/spaces/hosts.ts';
import { getSpace } from '@/lib/spaces/spaces.ts';

export const metadata: Metadata = { title: 'Protected space' };

// A password-protected space's page, for a visitor without the password: the
// password is entered on the published site (where it sets the site's cookie);
// members open the space's page by signing in.
export default async function ProtectedSpace({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const caller = await pageCaller();
  const { actor } = caller;
  const space = await getSpace(caller, id).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  });
  if (!space || !space.passwordProtected) notFound();
  // Someone who may see it after all (signed in since) goes to the space itself.
  if (space.permissions.view) redirect(`/spaces/${encodeURIComponent(id)}`);
  return (
    <Page actor={actor} width="max-w-3xl">
      <section aria-labelledby="protected-title" className="py-10 text-center sm:py-16">
        <h1 id="protected-title" className="text-3xl font-bold tracking-tight">
          This space is protected by a password
        </h1>
        <p className="mx-auto mt-3 max-w-md text-muted">
          Open its published site and enter the password there.
          {actor ? ' Its files, history and comments are for the members of its workspace.' : ' Members of its workspace see everything here once signed in.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <ButtonLink href={siteUrl(id)}>Open the site</ButtonLink>
          {actor ? null : (
            <ButtonLink href={`/signin?next=${encodeURIComponent(`/spaces/${id}`)}`} variant="secondary">
              Sign in
            </ButtonLink>
          )}
        </div>
      </section>
    </Page>
  );
}
