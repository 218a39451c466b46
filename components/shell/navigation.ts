// The app's top-level places, in one list: the shell's navigation draws it and
// highlights the current one. A new area (rooms, apps, billing…) adds a line.
export type NavItem = { href: string; label: string; exact?: boolean };

export const primaryNav: NavItem[] = [
  { href: '/', label: 'Dashboard', exact: true },
  { href: '/spaces', label: 'Spaces' },
  { href: '/settings', label: 'Settings' },
  { href: '/reference', label: 'API reference' },
];

export type Crumb = { label: string; href?: string };
