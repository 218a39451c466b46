import type { Metadata } from 'next';
import { SettingsFrame } from '@/components/settings-frame.tsx';
import { ActionButton } from '@/components/ui/action-button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { currentUser } from '@/lib/accounts/users.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { listTokens } from '@/lib/auth/tokens.ts';
import { CreateTokenForm } from '@/components/settings/create-token-form.tsx';
import { Time } from '@/components/ui/time.tsx';

export const metadata: Metadata = { title: 'API tokens' };
export const dynamic = 'force-dynamic';

export default async function TokensPage() {
  const caller = await requirePageCaller('/settings/tokens');
  const { actor } = caller;
  const [{ tokens }, me] = await Promise.all([listTokens(caller), currentUser(caller)]);
  return (
    <SettingsFrame actor={actor} current="/settings/tokens">
      <Card title="New API token" id="new-token">
        <CreateTokenForm activeIds={tokens.map((token) => token.id)} />
      </Card>
      <Card title="API tokens and sessions">
        <p className="mb-4 text-sm text-muted">
          The command line gets a token when you approve its sign-in; each browser you sign in with has a session. A
          token ends 90 days after it was last used, a browser session after 30. Revoking one signs that device out.
        </p>
        {tokens.length === 0 ? (
          <EmptyState>No tokens.</EmptyState>
        ) : (
          <ul aria-label="Tokens" className="divide-y divide-slate-100 dark:divide-slate-800">
            {tokens.map((token) => (
              <li key={token.id} aria-label={token.label} className="flex flex-wrap items-start justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p>
                    <span className="font-medium">{token.label}</span>
                    {token.current ? <span className="ml-2 rounded bg-brand-soft px-1.5 py-0.5 text-xs text-link">this session</span> : null}
                  </p>
                  {me.preferences.developerMode ? <p className="font-mono text-xs text-muted">{token.id}</p> : null}
                  <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-muted">
                    <dt>Created</dt>
                    <dd>
                      <Time ms={token.createdAt} />
                    </dd>
                    <dt>Last used</dt>
                    <dd>
                      <Time ms={token.lastUsedAt} precision="hour" />
                    </dd>
                    <dt>Expires</dt>
                    <dd>
                      <Time ms={token.expiresAt} />
                    </dd>
                  </dl>
                </div>
                <ActionButton
                  method="DELETE"
                  path={`/v1/tokens/${token.id}`}
                  goTo={token.current ? '/signin' : undefined}
                  variant="danger"
                  size="sm"
                  label={token.current ? 'Sign out' : `Revoke ${token.label}`}
                  confirm={
                    token.current
                      ? { title: 'Sign out of this browser?', confirmLabel: 'Sign out' }
                      : { title: `Revoke “${token.label}”?`, description: 'Whatever uses it (a laptop, a CI job) is signed out at once.', confirmLabel: 'Revoke', danger: true }
                  }
                  done={token.current ? undefined : `Revoked “${token.label}”.`}
                >
                  {token.current ? 'Sign out' : 'Revoke'}
                </ActionButton>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </SettingsFrame>
  );
}
