import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { deleteWorkspace } from '@/lib/workspaces/deletion.ts';
import { getWorkspace, updateWorkspace } from '@/lib/workspaces/workspaces.ts';

export const GET = route(workspacesApi.get, async ({ caller, params }) => getWorkspace(caller, params.slug));
export const PATCH = route(workspacesApi.update, async ({ caller, params, body }) => updateWorkspace(caller, params.slug, body));
export const DELETE = route(workspacesApi.remove, async ({ caller, params }) => deleteWorkspace(caller, params.slug));
