import { route } from '@/lib/http/route.ts';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { exportDump } from '@/lib/spacedb/database.ts';

export const GET = route(spacedbApi.export, async ({ caller, params }) => {
  const { filename, text } = await exportDump(caller, params.id);
  return new Response(text, {
    headers: {
      'content-type': 'application/sql; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  });
});
