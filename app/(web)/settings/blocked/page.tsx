import type { Metadata } from 'next';
import { SettingsFrame } from '@/components/settings-frame.tsx';
import { UnblockButton } from '@/components/settings/unblock-button.tsx';
import { Card, EmptyState } from '@/components/ui/card.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { listBlockedUsers } from '@/lib/accounts/blocks.ts';
import { requirePageCaller } from '@/server/http/session.ts';

export const metadata: Metadata = { title: 'Blocked users' };
export const dynamic = 'force-dynamic';

export default async function BlockedUsersPage() {
  const caller = await requirePageCaller('/settings/blocked');
  const { actor } = caller;
  const blocked = await listBlockedUsers(caller);
  return (
    <SettingsFrame actor={actor} current="/settings/blocked">
      <Card title="Blocked users">
        <p className="mb-4 text-sm text-muted">
          Room chat from people you block no longer reaches you (from the next time you open a room).
        </p>
        {blocked.length === 0 ? (
          <EmptyState>You have not blocked anyone.</EmptyState>
        ) : (
          <Table label="Blocked users" headers={['User', '']}>
            {blocked.map((user) => (
              <tr key={user.id}>
                <Cell>
                  <span className="font-medium">@{user.handle}</span>
                  {user.name ? <span className="ml-2 text-muted">{user.name}</span> : null}
                </Cell>
                <Cell>
                  <UnblockButton userId={user.id} handle={user.handle} />
                </Cell>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </SettingsFrame>
  );
}
