// /dl/<ticket> links: a random ticket (stored hashed) that opens one file of
// one version, or one upload, for 5 minutes, without signing in. Expired
// tickets answer 410 for a day, then are forgotten.
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { hashSecret, newSecret } from '../secrets.ts';

export const TICKET_LIFETIME = 5 * 60 * 1000;
const KEEP_EXPIRED = 24 * 60 * 60 * 1000;

export type TicketTarget = { path: string; version: number } | { uploadId: string };

export async function createTicket(spaceId: string, target: TicketTarget): Promise<{ url: string; expiresAt: number }> {
  const ticket = newSecret('downloadTicket');
  const expiresAt = Date.now() + TICKET_LIFETIME;
  await db.$transaction([
    db.downloadTicket.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - KEEP_EXPIRED) } } }),
    db.downloadTicket.create({
      data: {
        hash: hashSecret(ticket),
        spaceId,
        expiresAt: new Date(expiresAt),
        ...('uploadId' in target ? { uploadId: target.uploadId } : { path: target.path, version: target.version }),
      },
    }),
  ]);
  return { url: `${config.publicUrl}/dl/${ticket}`, expiresAt };
}

/** What a ticket opens; not_found for an unknown ticket, gone for an expired one. */
export async function redeemTicket(ticket: string): Promise<{ spaceId: string; target: TicketTarget }> {
  const row = await db.downloadTicket.findUnique({ where: { hash: hashSecret(ticket) } });
  if (!row) throw new ApiError('not_found', 'No such download link.');
  if (row.expiresAt.getTime() <= Date.now()) throw new ApiError('gone', 'This download link has expired; ask for a new one.');
  const target: TicketTarget = row.uploadId ? { uploadId: row.uploadId } : { path: row.path!, version: row.version! };
  return { spaceId: row.spaceId, target };
}
