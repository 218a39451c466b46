import type { Metadata } from 'next';
import { SettingsFrame } from '@/components/settings-frame.tsx';
import { Card } from '@/components/ui/card.tsx';
import { currentUser } from '@/lib/accounts/users.ts';
import { requirePageCaller } from '@/server/http/session.ts';
import { config } from '@/lib/config.ts';
import { notificationSettings } from '@/lib/notifications/notifications.ts';
import { DeveloperModeToggle } from './developer-mode.tsx';
import { NotificationMail } from './notification-mail.tsx';

export const metadata: Metadata = { title: 'Preferences' };
export const dynamic = 'force-dynamic';

export default async function PreferencesPage() {
  const caller = await requirePageCaller('/settings/preferences');
  const { actor } = caller;
  const [me, settings] = await Promise.all([currentUser(caller), notificationSettings(caller)]);
  return (
    <SettingsFrame actor={actor} current="/settings/preferences">
      <Card title="Preferences">
        <DeveloperModeToggle initial={me.preferences.developerMode} />
      </Card>
      <Card title="Notification e-mail" id="notification-mail">
        <NotificationMail initial={settings.mailOn} mailConfigured={Boolean(config.smtpUrl)} />
      </Card>
    </SettingsFrame>
  );
}
