import type { Metadata } from 'next';
import { SettingsFrame } from '@/components/settings-frame.tsx';
import { Card } from '@/components/ui/card.tsx';
import { currentUser } from '@/lib/accounts/users.ts';
import { requirePageActor } from '@/lib/auth/session.ts';
import { DeveloperModeToggle } from './developer-mode.tsx';

export const metadata: Metadata = { title: 'Preferences' };
export const dynamic = 'force-dynamic';

export default async function PreferencesPage() {
  const actor = await requirePageActor('/settings/preferences');
  const me = await currentUser(actor.user.id);
  return (
    <SettingsFrame actor={actor} current="/settings/preferences">
      <Card title="Preferences">
        <DeveloperModeToggle initial={me.preferences.developerMode} />
      </Card>
    </SettingsFrame>
  );
}
