import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { pageCaller } from '@/server/http/session.ts';

export const metadata: Metadata = { title: 'Not found' };

// Unknown addresses, and spaces or workspaces the person may not see (those
// stay 404, so their existence is not told), come here: a way home, not a dead end.
export default async function NotFound() {
  const { actor } = await pageCaller();
  return (
    <Page actor={actor} width="max-w-3xl">
      <section aria-labelledby="not-found-title" className="py-10 text-center sm:py-16">
        <p className="text-sm font-semibold text-link">404</p>
        <h1 id="not-found-title" className="mt-2 text-3xl font-bold tracking-tight">
          This page is not here
        </h1>
        <p className="mx-auto mt-3 max-w-md text-muted">
          The address may be mistyped, or the page was deleted, or it belongs to a workspace you are not a member of.
          {actor ? '' : ' If someone shared it with you, signing in may show it.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <ButtonLink href="/">{actor ? 'Go to your dashboard' : 'Go home'}</ButtonLink>
          {actor ? null : (
            <ButtonLink href="/signin" variant="secondary">
              Sign in
            </ButtonLink>
          )}
        </div>
      </section>
    </Page>
  );
}
