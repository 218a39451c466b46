import { attachment } from '@/server/http/files.ts';
import { route } from '@/server/http/route.ts';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { exportDump } from '@/lib/spacedb/database.ts';

export const GET = route(spacedbApi.export, async ({ caller, params }) => {
  const { filename, text } = await exportDump(caller, params.id);
  return attachment(text, filename, 'application/sql; charset=utf-8');
});
