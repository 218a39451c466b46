import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { config } from '@/lib/config.ts';
import { EMAIL_LINK_MINUTES } from '@/lib/auth/web-sign-in.ts';

export const metadata: Metadata = { title: 'Check your e-mail' };
export const dynamic = 'force-dynamic';

export default function CheckEmailPage() {
  return (
    <Page actor={null} title="Check your e-mail" width="max-w-md">
      <p>
        We sent you a link that signs you in. It works once, for {EMAIL_LINK_MINUTES} minutes. You can close this tab.
      </p>
      {config.smtpUrl ? null : (
        <p className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          This server has no e-mail configured (SMTP_URL), so the link was written to the server&apos;s log instead.
        </p>
      )}
    </Page>
  );
}
