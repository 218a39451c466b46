// The audit log in sentences for people ("@ann invited @bob as a member");
// the API keeps its event codes (member.invited) for scripts.
import type { AuditEvent } from '../schemas/workspaces.ts';

const a = (role: unknown) => (typeof role === 'string' ? `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}` : 'a member');
const at = (handle: string | null | undefined) => (handle ? `@${handle}` : 'someone');

export function auditSentence(event: Pick<AuditEvent, 'action' | 'actor' | 'target' | 'details'>): string {
  const who = event.actor ? `@${event.actor.handle}` : 'Atrium';
  const target = event.target?.label ?? null;
  const d = event.details as Record<string, unknown>;
  switch (event.action) {
    case 'workspace.created':
      return `${who} created the workspace ${d.name ? `${d.name} (/${d.slug})` : (target ?? '')}`.trim() + '.';
    case 'workspace.updated': {
      const parts: string[] = [];
      const name = d.name as { from: string; to: string } | undefined;
      const slug = d.slug as { from: string; to: string } | undefined;
      if (name) parts.push(`renamed the workspace from ${name.from} to ${name.to}`);
      if (slug) parts.push(`moved its address from /${slug.from} to /${slug.to}`);
      return `${who} ${parts.join(' and ') || 'changed the workspace'}.`;
    }
    case 'member.invited':
      return `${who} invited ${at(target)} as ${a(d.role)}.`;
    case 'member.invitation_cancelled':
      return `${who} cancelled the invitation of ${at(target)}.`;
    case 'member.joined':
      return `${at(target)} joined as ${a(d.role)}${d.via === 'invite_link' ? ' through an invite link' : d.via === 'invitation' ? ', accepting an invitation' : ''}.`;
    case 'member.declined':
      return `${at(target)} declined the invitation.`;
    case 'member.role_changed':
      return `${who} made ${at(target)} ${a(d.to)}${typeof d.from === 'string' ? ` (was ${a(d.from)})` : ''}${d.pending ? ' before they joined' : ''}.`;
    case 'member.removed':
      return `${who} removed ${at(target)} from the workspace.`;
    case 'member.left':
      return `${at(target ?? event.actor?.handle)} left the workspace.`;
    case 'invite_link.created': {
      const limits = [typeof d.maxUses === 'number' ? `for ${d.maxUses} ${d.maxUses === 1 ? 'use' : 'uses'}` : null, typeof d.email === 'string' ? `for ${d.email} only` : null].filter(Boolean);
      return `${who} made an invite link for ${a(d.role)}${limits.length ? ` ${limits.join(', ')}` : ''}.`;
    }
    case 'invite_link.revoked':
      return `${who} revoked an invite link${target ? ` for ${target}` : ''}.`;
    case 'space.deleted':
      return `${who} deleted the space ${target ?? ''}`.trim() + '.';
    default:
      // An event a later feature added without a sentence here: still readable.
      return `${who}: ${event.action.replace(/[._]/g, ' ')}${target ? ` (${target})` : ''}.`;
  }
}
