'use client';

import { useState } from 'react';
import { ErrorNote } from '@/components/ui/card.tsx';
import { notificationKind, notificationsApi, type NotificationKind } from '@/lib/schemas/notifications.ts';
import { useToast } from '@/components/ui/toast.tsx';
import { web } from '@/lib/web/api-client.ts';

const LABELS: Record<NotificationKind, string> = {
  mention: 'Someone @mentions you in a comment or a room',
  reply: 'Someone replies to your comment thread',
  resolved: 'Someone resolves your comment thread',
  invited: 'You are invited to a workspace',
  role_changed: 'Your role in a workspace changes',
  app_live: 'An app in one of your workspaces goes live',
};

/** Which notifications are also e-mailed; each box saves at once. */
export function NotificationMail({ initial, mailConfigured }: { initial: NotificationKind[]; mailConfigured: boolean }) {
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();

  // The box shows its new state at once; a failure puts it back and says why.
  async function toggle(kind: NotificationKind, checked: boolean) {
    const before = on;
    const next = notificationKind.options.filter((k) => (k === kind ? checked : on.includes(k)));
    setOn(next);
    setBusy(true);
    setError(null);
    try {
      const saved = await web.call(notificationsApi.updateSettings, { body: { mailOn: next } });
      setOn(saved.mailOn);
      toast({ message: `Saved: ${checked ? 'e-mailed' : 'no longer e-mailed'} when ${LABELS[kind].toLowerCase()}.` });
    } catch (failure) {
      setOn(before);
      setError((failure as Error).message);
    }
    setBusy(false);
  }

  return (
    <fieldset className="space-y-2">
      <legend className="mb-2 text-sm text-muted">
        Every notification appears in your inbox. Also e-mail me when:
      </legend>
      {notificationKind.options.map((kind) => (
        <label key={kind} className="flex items-center gap-3 text-sm">
          <input type="checkbox" className="size-4" checked={on.includes(kind)} disabled={busy} onChange={(event) => toggle(kind, event.target.checked)} />
          {LABELS[kind]}
        </label>
      ))}
      {mailConfigured ? null : <p className="text-sm text-muted">This server does not send e-mail yet (its operator sets SMTP_URL), so nothing is mailed for now.</p>}
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </fieldset>
  );
}
