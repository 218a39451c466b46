import { downloadByTicket } from '@/lib/spaces/downloads.ts';

// A /dl/<ticket> link: no sign-in, one file, 5 minutes.
export async function GET(request: Request, { params }: { params: Promise<{ ticket: string }> }) {
  return downloadByTicket(request, (await params).ticket);
}
