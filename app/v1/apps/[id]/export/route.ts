import { exportApp } from '@/lib/apps/export.ts';
import { attachment } from '@/server/http/files.ts';
import { route } from '@/server/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const GET = route(appsApi.export, async ({ caller, params }) => {
  const { filename, zip } = await exportApp(caller, params.id);
  return attachment(zip, filename, 'application/zip');
});
