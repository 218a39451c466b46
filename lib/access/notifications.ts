// Which of a person's notifications they may see: those about something they
// can still see now, decided from current grants each time the inbox is read
// (a notification outlives neither its comment nor its app, but it does outlive
// the person's membership or the space's visibility).
//   mention, reply, resolved  the comment's space: they view it without a password
//                             (its workspace, its viewers list, or public)
//   mention on a room's page  they are still one of the room's people
//   invited                   the invitation still stands, or was accepted
//   role_changed              they are still a member of the workspace
//   app_live                  they can still view the app's room
import type { Prisma } from '../db/client.ts';
import { listedRooms } from './rooms.ts';
import { viewableSpaces } from './spaces.ts';
import { joinedWorkspaces } from './workspaces.ts';

export function visibleNotifications(userId: string): Prisma.NotificationWhereInput {
  return {
    userId,
    OR: [
      { kind: { in: ['mention', 'reply', 'resolved'] }, space: viewableSpaces(userId) },
      { kind: 'mention', room: listedRooms(userId) },
      { kind: 'invited', workspace: { memberships: { some: { userId } } } },
      { kind: 'role_changed', workspace: joinedWorkspaces(userId) },
      { kind: 'app_live', app: { room: listedRooms(userId) } },
    ],
  };
}
