import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { pageCaller } from '@/server/http/session.ts';
import { signInMethods } from '@/lib/auth/web-sign-in.ts';
import { safeNext } from '@/lib/web/next-path.ts';
import { DevSignInForm } from './dev-sign-in-form.tsx';
import { EmailSignInForm, OAuthButton } from './sign-in-forms.tsx';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

// next-auth sends people back here with ?error=<type> when a sign-in fails.
const ERRORS: Record<string, string> = {
  Verification: 'That sign-in link has expired or was already used. Ask for a new one below.',
  OAuthAccountNotLinked: 'An account with that e-mail address already exists. Sign in the way you did before (for example by e-mail link).',
  AccessDenied: 'Sign-in was refused.',
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const next = safeNext(query.next);
  const error = typeof query.error === 'string' ? (ERRORS[query.error] ?? 'Signing in did not work; try again.') : null;
  const caller = await pageCaller();
  const { actor } = caller;
  const methods = signInMethods();
  return (
    <Page actor={actor} title="Sign in to Atrium" width="max-w-md">
      {actor ? (
        <div className="mb-6 space-y-3 rounded-md bg-brand-soft p-4 text-sm">
          <p>
            You are signed in as <strong>@{actor.user.handle}</strong>.
          </p>
          <ButtonLink href={next}>Continue</ButtonLink>
        </div>
      ) : null}
      {error ? (
        <div className="mb-6">
          <ErrorNote>{error}</ErrorNote>
        </div>
      ) : null}
      <div className="space-y-8">
        <EmailSignInForm next={next} />
        {methods.github || methods.google ? (
          <div className="space-y-3 border-t border-line pt-6">
            {methods.github ? <OAuthButton provider="github" label="GitHub" next={next} /> : null}
            {methods.google ? <OAuthButton provider="google" label="Google" next={next} /> : null}
          </div>
        ) : null}
        {methods.dev ? (
          <div className="border-t border-line pt-2">
            <DevSignInForm next={next} />
          </div>
        ) : null}
      </div>
    </Page>
  );
}
