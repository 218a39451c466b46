// Answering a /dl/<ticket> link: the file or upload it names, as an attachment.
import { ApiError, errorResponse } from '../http/errors.ts';
import { sendVersionFile } from './publishing.ts';
import { redeemTicket } from './tickets.ts';
import { sendUpload } from './uploads.ts';

export async function downloadByTicket(request: Request, ticket: string): Promise<Response> {
  try {
    const { spaceId, target } = await redeemTicket(ticket);
    return 'uploadId' in target ? await sendUpload(request, spaceId, target.uploadId) : await sendVersionFile(request, spaceId, target.path, target.version);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error.code, error.message);
    throw error;
  }
}
