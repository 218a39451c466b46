// @handle mentions in a comment: each person mentioned who can see the space
// and has an e-mail address gets one message when the comment is posted
// (never its author; guests' comments mention nobody, see docs/decisions.md).
import { permissionsFor, standingOf } from '../access/spaces.ts';
import type { Actor } from '../auth/tokens.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { sendMail } from '../mail/mailer.ts';
import type { LoadedSpace } from '../spaces/spaces.ts';

const MENTION = /(?<![\w@./-])@([a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?)(?![\w-])/gi;
/** At most this many people are mailed for one comment. */
const MAX_MENTIONS = 20;

export function mentionedHandles(body: string): string[] {
  return [...new Set([...body.matchAll(MENTION)].map((m) => m[1].toLowerCase()))].slice(0, MAX_MENTIONS);
}

export async function notifyMentions(loaded: LoadedSpace, author: Actor, comment: { id: string; path: string; body: string }): Promise<number> {
  if (!config.smtpUrl) return 0;
  const handles = mentionedHandles(comment.body).filter((h) => h !== author.user.handle);
  if (!handles.length) return 0;
  const users = await db.user.findMany({ where: { handle: { in: handles }, email: { not: null } }, select: { id: true, handle: true, name: true, email: true } });
  const { space } = loaded;
  const link = `${config.publicUrl}/spaces/${space.id}/comments?path=${encodeURIComponent(comment.path)}#${comment.id}`;
  const who = author.user.name ? `${author.user.name} (@${author.user.handle})` : `@${author.user.handle}`;
  let sent = 0;
  for (const user of users) {
    const standing = await standingOf({ user, token: { id: '', kind: 'web' } }, space);
    if (!permissionsFor(space, standing).view) continue;
    await sendMail({
      to: user.email!,
      subject: `${who} mentioned you on ${space.name}`,
      text: `${who} mentioned you in a comment on ${comment.path} in ${space.name}:\n\n${comment.body}\n\nOpen it: ${link}\n`,
    });
    sent++;
  }
  return sent;
}
