// The tabs of a workspace, in one list: the frame draws those the person's
// role opens. A new area (billing, apps…) adds a line here and a folder
// app/(web)/w/[slug]/<segment>/page.tsx.
import type { Capability } from '@/lib/access/capabilities.ts';

export type WorkspaceTab = { segment: string; label: string; need?: Capability };

export const workspaceTabs: WorkspaceTab[] = [
  { segment: '', label: 'Members' },
  { segment: 'spaces', label: 'Spaces' },
  { segment: 'apps', label: 'Apps' },
  { segment: 'billing', label: 'Billing' },
  { segment: 'invites', label: 'Invite links', need: 'admin' },
  { segment: 'audit', label: 'Audit log', need: 'admin' },
  { segment: 'webhooks', label: 'Webhooks', need: 'admin' },
  { segment: 'settings', label: 'Settings', need: 'admin' },
];
