import { route } from '@/lib/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { getWorkspace, updateWorkspace } from '@/lib/workspaces/workspaces.ts';

export const GET = route(workspacesApi.get, async ({ actor, params }) => getWorkspace(actor, params.slug));
export const PATCH = route(workspacesApi.update, async ({ actor, params, body }) => updateWorkspace(actor, params.slug, body));
