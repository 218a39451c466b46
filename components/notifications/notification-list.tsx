'use client';
// The inbox's entries: each links to its place and is marked read on the way
// there; an unread one can also be marked read where it stands.
import { useRouter } from 'next/navigation';
import { useState, type MouseEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ErrorNote } from '@/components/ui/card.tsx';
import { Time } from '@/components/ui/time.tsx';
import { notificationText } from '@/lib/notifications/text.ts';
import type { Notification } from '@/lib/schemas/notifications.ts';
import { notificationsApi } from '@/lib/schemas/notifications.ts';
import { web } from '@/lib/web/api-client.ts';

export function NotificationList({ notifications }: { notifications: Notification[] }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);

  async function markRead(id: string) {
    setError(null);
    try {
      await web.call(notificationsApi.read, { body: { ids: [id] } });
      router.refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  async function open(event: MouseEvent<HTMLAnchorElement>, n: Notification) {
    if (n.read || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    // Going there matters more than the mark: a failure to mark does not stop it.
    await web.call(notificationsApi.read, { body: { ids: [n.id] } }).catch(() => {});
    window.location.assign(n.path);
  }

  return (
    <>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <ul aria-label="Notifications" className="divide-y divide-slate-200 rounded-lg border border-line bg-surface dark:divide-slate-700">
        {notifications.map((n) => {
          const { title, detail } = notificationText(n);
          return (
            <li key={n.id} className={`flex items-start gap-3 p-3 sm:p-4 ${n.read ? '' : 'bg-indigo-50/60 dark:bg-indigo-950/40'}`}>
              <span aria-hidden="true" className={`mt-1.5 size-2.5 shrink-0 rounded-full ${n.read ? 'bg-transparent' : 'bg-brand dark:bg-indigo-300'}`} />
              <div className="min-w-0 flex-1">
                <a href={n.path} onClick={(event) => open(event, n)} className={`block [overflow-wrap:anywhere] hover:underline ${n.read ? 'text-slate-700 dark:text-slate-300' : 'font-semibold'}`}>
                  {n.read ? null : <span className="sr-only">Unread: </span>}
                  {title}
                </a>
                {detail ? <p className="mt-1 line-clamp-2 text-sm text-muted [overflow-wrap:anywhere]">{detail}</p> : null}
                <p className="mt-1 text-xs text-muted">
                  <Time ms={n.createdAt} /> · {n.workspace.name}
                </p>
              </div>
              {n.read ? null : (
                <Button variant="ghost" size="sm" onClick={() => markRead(n.id)} aria-label={`Mark read: ${title}`}>
                  Mark read
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
