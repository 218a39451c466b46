// @handle mentions in a comment: each person mentioned who can see the space
// is notified (and mailed, as their preferences say) when the comment is
// posted; never its author; guests' comments mention nobody (docs/decisions.md).
import { permissionsFor, standingOf } from '../access/spaces.ts';
import type { Actor } from '../core/caller.ts';
import { db } from '../db/client.ts';
import type { LoadedSpace } from '../spaces/spaces.ts';

const MENTION = /(?<![\w@./-])@([a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?)(?![\w-])/gi;
/** At most this many people are notified for one comment. */
const MAX_MENTIONS = 20;

export function mentionedHandles(body: string): string[] {
  return [...new Set([...body.matchAll(MENTION)].map((m) => m[1].toLowerCase()))].slice(0, MAX_MENTIONS);
}

/** The ids of the people `body` mentions who can view the space, the author left out. */
export async function mentionedViewers({ space }: LoadedSpace, author: Actor, body: string): Promise<string[]> {
  const handles = mentionedHandles(body).filter((h) => h !== author.user.handle);
  if (!handles.length) return [];
  const users = await db.user.findMany({ where: { handle: { in: handles } }, select: { id: true, handle: true, name: true } });
  const viewers: string[] = [];
  for (const user of users) {
    const standing = await standingOf({ user, token: { id: '', kind: 'web' } }, space);
    if (permissionsFor(space, standing).view) viewers.push(user.id);
  }
  return viewers;
}
