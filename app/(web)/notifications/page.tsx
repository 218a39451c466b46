import type { Metadata } from 'next';
import { NotificationList } from '@/components/notifications/notification-list.tsx';
import { Page } from '@/components/page.tsx';
import { ActionButton } from '@/components/ui/action-button.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/card.tsx';
import { requirePageCaller } from '@/server/http/session.ts';
import { listNotifications } from '@/lib/notifications/notifications.ts';

export const metadata: Metadata = { title: 'Notifications' };
export const dynamic = 'force-dynamic';

export default async function NotificationsPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const caller = await requirePageCaller('/notifications');
  const before = Number((await searchParams).before);
  const page = await listNotifications(caller, { before: Number.isSafeInteger(before) && before > 0 ? before : undefined, limit: 50 });
  return (
    <Page actor={caller.actor} width="max-w-3xl" crumbs={[{ label: 'Dashboard', href: '/' }, { label: 'Notifications' }]}>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Notifications</h1>
          <p className="text-sm text-muted">{page.unread ? `${page.unread} unread` : 'All caught up'}</p>
        </div>
        {page.unread ? (
          <ActionButton method="POST" path="/v1/notifications/read" body={{ all: true }} done="All notifications marked read">
            Mark all read
          </ActionButton>
        ) : null}
      </div>
      {page.notifications.length ? (
        <NotificationList notifications={page.notifications} />
      ) : (
        <EmptyState title="Nothing here yet">Mentions, replies to your threads, resolved threads, invitations, role changes and apps going live show up here.</EmptyState>
      )}
      {page.next ? (
        <div className="mt-4">
          <ButtonLink variant="secondary" href={`/notifications?before=${page.next}`}>
            Older notifications
          </ButtonLink>
        </div>
      ) : null}
      <p className="mt-6 text-sm text-muted">
        Choose which of these are also e-mailed to you under{' '}
        <a href="/settings/preferences" className="text-link underline">
          Settings → Preferences
        </a>
        .
      </p>
    </Page>
  );
}
