// What a notification says, in one place for the inbox page and the e-mail.
import type { Notification } from '../schemas/notifications.ts';

export function notificationText(n: Notification): { title: string; detail: string | null } {
  const who = n.actor ? n.actor.name || `@${n.actor.handle}` : 'Someone';
  const where = n.comment && n.space ? `${n.comment.path} in ${n.space.name}` : '';
  switch (n.kind) {
    case 'mention':
      if (n.room) return { title: `${who} mentioned you on a page of ${n.room.name}`, detail: null };
      return { title: `${who} mentioned you on ${where}`, detail: n.comment!.body };
    case 'reply':
      return { title: `${who} replied to your thread on ${where}`, detail: n.comment!.body };
    case 'resolved':
      return { title: `${who} resolved your thread on ${where}`, detail: n.comment!.body };
    case 'invited':
      return { title: `${who} invited you to ${n.workspace.name} as ${n.role}`, detail: null };
    case 'role_changed':
      return { title: `${who} made you ${n.role} in ${n.workspace.name}`, detail: null };
    case 'app_live':
      return { title: `${who} took the app ${n.app!.name} live in ${n.workspace.name}`, detail: null };
  }
}
