import type { Metadata } from 'next';
import { Page } from '@/components/page.tsx';
import { ActionButton } from '@/components/ui/action-button.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, ErrorNote } from '@/components/ui/card.tsx';
import { Field } from '@/components/ui/field.tsx';
import { getCliSignIn } from '@/lib/auth/cli-sign-in.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { ApiError } from '@/lib/core/errors.ts';
import type { CliSignInRequest } from '@/lib/schemas/auth.ts';
import { formatTime } from '@/lib/web/format.ts';

export const metadata: Metadata = { title: 'Sign in the command line' };
export const dynamic = 'force-dynamic';

function CodeForm({ code, problem }: { code: string; problem: string | null }) {
  return (
    <form method="get" action="/device" className="space-y-4">
      <p>Enter the code that your terminal shows.</p>
      <Field
        label="Code"
        name="code"
        defaultValue={code}
        required
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="XXXX-XXXX"
        error={problem}
      />
      <Button type="submit">Continue</Button>
    </form>
  );
}

function where(request: CliSignInRequest): string {
  const from = request.requestedFrom;
  const parts = [from?.city, from?.country].filter(Boolean);
  return parts.length ? parts.join(', ') : 'Unknown';
}

function Outcome({ request, handle }: { request: CliSignInRequest; handle: string }) {
  switch (request.status) {
    case 'approved':
      return <p role="status" className="rounded-md bg-green-50 p-3 text-green-900 dark:bg-green-950 dark:text-green-100">Approved. The command line is now signed in as @{handle}; you can close this tab.</p>;
    case 'denied':
      return <p role="status" className="rounded-md bg-slate-100 p-3 dark:bg-slate-800">Denied. The command line was not signed in.</p>;
    case 'expired':
      return <ErrorNote>This request has expired. Run the sign-in command again to get a new code.</ErrorNote>;
    case 'pending':
      return (
        <div className="space-y-4">
          <p className="text-sm">
            Approve only if you started this sign-in yourself and the code matches the one in your terminal. Approving
            gives that command line full access to your account.
          </p>
          <div className="flex flex-wrap gap-3">
            <ActionButton method="POST" path="/v1/auth/cli/decide" body={{ userCode: request.userCode, approve: true }} variant="primary">
              Approve
            </ActionButton>
            <ActionButton method="POST" path="/v1/auth/cli/decide" body={{ userCode: request.userCode, approve: false }}>
              Deny
            </ActionButton>
          </div>
        </div>
      );
  }
}

export default async function DevicePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const code = typeof query.code === 'string' ? query.code.trim() : '';
  const caller = await requirePageCaller(code ? `/device?code=${encodeURIComponent(code)}` : '/device');
  const { actor } = caller;
  let request: CliSignInRequest | null = null;
  let problem: string | null = null;
  if (code) {
    try {
      request = await getCliSignIn(caller, code);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problem = error.message;
    }
  }
  return (
    <Page actor={actor} title="Sign in the command line" width="max-w-lg">
      {request ? (
        <Card label="Sign-in request">
          <p className="mb-4 text-center font-mono text-3xl tracking-widest" aria-label="Code">
            {request.userCode}
          </p>
          <dl className="mb-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted">Label</dt>
            <dd>{request.label ?? '—'}</dd>
            <dt className="text-muted">From</dt>
            <dd>{where(request)}</dd>
            <dt className="text-muted">Program</dt>
            <dd className="break-all">{request.userAgent ?? 'Unknown'}</dd>
            <dt className="text-muted">Requested</dt>
            <dd>{formatTime(request.createdAt)}</dd>
            <dt className="text-muted">Expires</dt>
            <dd>{formatTime(request.expiresAt)}</dd>
          </dl>
          <Outcome request={request} handle={actor.user.handle} />
        </Card>
      ) : (
        <CodeForm code={code} problem={problem} />
      )}
    </Page>
  );
}
