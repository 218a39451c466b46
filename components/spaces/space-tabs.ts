// The tabs of a space, in one list: the space layout draws them for the
// permissions the person has. A new area adds a line here and a folder
// app/(web)/spaces/[id]/<segment>/page.tsx.
import type { Space } from '@/lib/schemas/spaces.ts';

export type SpaceTab = { segment: string; label: string; need?: keyof Space['permissions'] };

export const spaceTabs: SpaceTab[] = [
  { segment: '', label: 'Files' },
  { segment: 'history', label: 'History' },
  { segment: 'uploads', label: 'Uploads' },
  { segment: 'comments', label: 'Comments' },
  { segment: 'database', label: 'Database' },
  { segment: 'visitors', label: 'Visitors', need: 'push' },
  { segment: 'settings', label: 'Settings', need: 'manage' },
];

export function tabsFor(space: Space) {
  return spaceTabs
    .filter((t) => !t.need || space.permissions[t.need])
    .map((t) => ({ href: t.segment ? `/spaces/${space.id}/${t.segment}` : `/spaces/${space.id}`, label: t.label, exact: !t.segment }));
}
