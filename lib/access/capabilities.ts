// Who may do what: every role maps to a set of capabilities, and every feature
// asks here rather than comparing roles itself.
//   view    read the workspace and what it holds
//   comment discuss (comments, chat)
//   edit    change content (documents, sources)
//   push    publish versions and uploads to spaces
//   manage  change settings of spaces, rooms and apps, share them, take them live
//   admin   administer the workspace: members, invitations, invite links, audit log, billing
import type { WorkspaceRole } from '../db/generated/client.ts';
import { workspaceRole } from '../schemas/workspaces.ts';

export const CAPABILITIES = ['view', 'comment', 'edit', 'push', 'manage', 'admin'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const WORKSPACE_CAPABILITIES: Record<WorkspaceRole, readonly Capability[]> = {
  owner: CAPABILITIES,
  admin: CAPABILITIES,
  member: ['view', 'comment', 'edit', 'push'],
  viewer: ['view', 'comment'],
};

export function workspaceRoleCan(role: WorkspaceRole, capability: Capability): boolean {
  return WORKSPACE_CAPABILITIES[role].includes(capability);
}

/** The roles that hold a capability. */
export function rolesWith(capability: Capability): WorkspaceRole[] {
  return workspaceRole.options.filter((role) => workspaceRoleCan(role, capability));
}

/** The roles that hold a capability, e.g. "owner or admin", for messages. */
export function rolesThatCan(capability: Capability): string {
  return workspaceRole.options.filter((role) => workspaceRoleCan(role, capability)).join(' or ');
}

// Owners are special: only an owner makes, unmakes or removes an owner, and
// the last owner stays (lib/workspaces/members.ts keeps that one).

/** Whether `actor` may give `next` to someone whose role is `current` (null: not yet invited). */
export function mayAssignRole(actor: WorkspaceRole, current: WorkspaceRole | null, next: WorkspaceRole): boolean {
  if (!workspaceRoleCan(actor, 'admin')) return false;
  return actor === 'owner' || (current !== 'owner' && next !== 'owner');
}

/** Whether `actor` may remove someone else whose role is `target`. */
export function mayRemoveMember(actor: WorkspaceRole, target: WorkspaceRole): boolean {
  return workspaceRoleCan(actor, 'admin') && (actor === 'owner' || target !== 'owner');
}

/** The roles `actor` may give someone whose role is `current` (null: a newcomer), `current` included. */
export function assignableRoles(actor: WorkspaceRole, current: WorkspaceRole | null = null): WorkspaceRole[] {
  return workspaceRole.options.filter((role) => role === current || mayAssignRole(actor, current, role));
}
