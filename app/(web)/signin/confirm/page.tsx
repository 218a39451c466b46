import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { AUTH_BASE_PATH } from '@/lib/auth/web-sign-in.ts';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

// E-mailed links lead here first: the one-time link is followed only when the
// person presses the button, not when a mail scanner opens the e-mail's link.
export default async function ConfirmSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const value = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
  const callback = `${AUTH_BASE_PATH}/callback/email?${new URLSearchParams({ token: value('token'), email: value('email'), callbackUrl: value('callbackUrl') })}`;
  return (
    <Page actor={null} title="Sign in to Atrium" width="max-w-md">
      <p className="mb-6">
        Sign in as <strong>{value('email')}</strong>?
      </p>
      <ButtonLink href={callback}>Sign in</ButtonLink>
    </Page>
  );
}
