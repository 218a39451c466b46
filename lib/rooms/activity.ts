// A room's activity line ("edited by @ana", "message from @bo"), shown in its listing.
import { db } from '../db/client.ts';

export async function touchActivity(roomId: string, what: string) {
  await db.room.updateMany({ where: { id: roomId }, data: { lastActivity: what, lastActivityAt: new Date() } });
}
