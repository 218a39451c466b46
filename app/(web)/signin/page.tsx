import type { Metadata } from 'next';
import { SiteHeader } from '@/components/site-header.tsx';
import { config } from '@/lib/config.ts';
import { DevSignInForm } from './dev-sign-in-form.tsx';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

export default function SignInPage() {
  return (
    <>
      <SiteHeader actor={null} />
      <main className="mx-auto max-w-md px-4 py-12">
        <h1 className="text-2xl font-bold">Sign in to Atrium</h1>
        {config.devAuth ? (
          <DevSignInForm />
        ) : (
          <p className="mt-4 text-slate-600">
            No sign-in method is enabled on this server. An administrator can enable development sign-in with
            DEV_AUTH=true (see the README).
          </p>
        )}
      </main>
    </>
  );
}
