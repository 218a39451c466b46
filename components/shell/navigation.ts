// The app's top-level places, in one list: the shell's navigation draws it and
// highlights the current one. A new area (rooms, apps, billing…) adds a line.
export type NavItem = { href: string; label: string; exact?: boolean };

export const primaryNav: NavItem[] = [
  { href: '/', label: 'Dashboard', exact: true },
  { href: '/spaces', label: 'Spaces' },
  { href: '/settings', label: 'Settings' },
  { href: '/reference', label: 'API reference' },
];

// The sections of the person's settings (components/settings-frame.tsx).
export const settingsNav = [
  { href: '/settings', label: 'Profile' },
  { href: '/settings/preferences', label: 'Preferences' },
  { href: '/settings/tokens', label: 'API tokens' },
  { href: '/settings/blocked', label: 'Blocked users' },
  { href: '/settings/delete', label: 'Delete account' },
] as const satisfies readonly NavItem[];

export type Crumb = { label: string; href?: string };
