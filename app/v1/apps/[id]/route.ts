import { deleteApp, getApp, patchApp } from '@/lib/apps/apps.ts';
import { route } from '@/server/http/route.ts';
import { appsApi } from '@/lib/schemas/apps.ts';

export const GET = route(appsApi.get, async ({ caller, params }) => getApp(caller, params.id));
export const PATCH = route(appsApi.patch, async ({ caller, params, body }) => patchApp(caller, params.id, body));
export const DELETE = route(appsApi.delete, async ({ caller, params }) => deleteApp(caller, params.id));
