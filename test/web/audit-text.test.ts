import { describe, expect, it } from 'vitest';
import { auditSentence } from '../../lib/web/audit-text.ts';

const event = (action: string, target: string | null, details: Record<string, unknown> = {}, actor = 'ann') => ({
  action,
  actor: actor ? { id: 'u1', handle: actor } : null,
  target: target ? { type: 'user', id: 'x', label: target } : null,
  details,
});

describe('the audit log in sentences', () => {
  it('says what happened without codes, nulls or ids', () => {
    expect(auditSentence(event('member.joined', 'bob', { role: 'admin', via: 'invite_link', inviteId: 'wsi_gx5d' }, 'bob'))).toBe('@bob joined as an admin through an invite link.');
    expect(auditSentence(event('invite_link.created', null, { role: 'member', email: null, maxUses: 1 }))).toBe('@ann made an invite link for a member for 1 use.');
    expect(auditSentence(event('member.role_changed', 'bob', { from: 'member', to: 'owner' }))).toBe('@ann made @bob an owner (was a member).');
    expect(auditSentence(event('workspace.updated', 'new', { name: { from: 'Old', to: 'New' } }))).toBe('@ann renamed the workspace from Old to New.');
    expect(auditSentence(event('invite_link.created', null, { role: 'member', email: null, maxUses: null }))).not.toMatch(/null|wsi_/);
    expect(auditSentence(event('room.opened', 'Lobby'))).toBe('@ann: room opened (Lobby).');
  });
});
