import type { Metadata } from 'next';
import { SettingsFrame } from '@/components/settings-frame.tsx';
import { Card } from '@/components/ui/card.tsx';
import { requirePageCaller } from '@/server/http/session.ts';
import { HandleForm } from './handle-form.tsx';
import { NameForm } from './name-form.tsx';

export const metadata: Metadata = { title: 'Profile' };
export const dynamic = 'force-dynamic';

export default async function ProfileSettingsPage() {
  const caller = await requirePageCaller('/settings');
  const { actor } = caller;
  return (
    <SettingsFrame actor={actor} current="/settings">
      <Card title="Profile">
        <p className="mb-4 text-sm text-muted">
          Changing your handle also renames your personal workspace when its address is still your handle. Links that
          used the old handle stop working, and someone else may take it.
        </p>
        <HandleForm current={actor.user.handle} />
      </Card>
      <Card title="Display name">
        <NameForm current={actor.user.name} />
      </Card>
    </SettingsFrame>
  );
}
