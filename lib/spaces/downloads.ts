// Answering a /dl/<ticket> link: the file or upload it names, as an attachment.
import type { FileAnswer } from '../core/files.ts';
import { versionFileAttachment } from './publishing.ts';
import { redeemTicket } from './tickets.ts';
import { uploadAttachment } from './uploads.ts';

export async function downloadByTicket(ticket: string): Promise<FileAnswer> {
  const { spaceId, target } = await redeemTicket(ticket);
  return 'uploadId' in target ? uploadAttachment(spaceId, target.uploadId) : versionFileAttachment(spaceId, target.path, target.version);
}
