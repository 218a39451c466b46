import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { pageCaller } from '@/server/http/session.ts';
import { SignOutButton } from './sign-out-button.tsx';

export const metadata: Metadata = { title: 'Sign out' };
export const dynamic = 'force-dynamic';

export default async function SignOutPage() {
  const caller = await pageCaller();
  const { actor } = caller;
  return (
    <Page actor={actor} title="Sign out" width="max-w-md">
      {actor ? (
        <>
          <p className="mb-6">
            Sign out <strong>@{actor.user.handle}</strong> on this browser? Command-line tokens stay signed in; revoke them under{' '}
            <a href="/settings/tokens" className="text-link underline">
              API tokens
            </a>
            .
          </p>
          <SignOutButton />
        </>
      ) : (
        <>
          <p className="mb-6">You are signed out.</p>
          <ButtonLink href="/signin">Sign in</ButtonLink>
        </>
      )}
    </Page>
  );
}
