import { exportApp } from '@/lib/apps/export.ts';
import { route } from '@/lib/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const GET = route(appsApi.export, async ({ caller, params }) => exportApp(caller, params.id));
