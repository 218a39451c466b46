import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { config } from '@/lib/config.ts';
import { DevSignInForm } from './dev-sign-in-form.tsx';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

// Only local paths are followed after sign-in, never another site.
function safeNext(next: string | string[] | undefined): string {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNext((await searchParams).next);
  return (
    <Page actor={null} title="Sign in to Atrium" width="max-w-md">
        {config.devAuth ? (
          <DevSignInForm next={next} />
        ) : (
          <p className="mt-4 text-slate-600">
            No sign-in method is enabled on this server. An administrator can enable development sign-in with
            DEV_AUTH=true (see the README).
          </p>
        )}
    </Page>
  );
}
