import { route } from '@/lib/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { createWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces.ts';

export const GET = route(workspacesApi.list, async ({ actor }) => listWorkspaces(actor.user.id));
export const POST = route(workspacesApi.create, async ({ actor, body }) => createWorkspace(actor, body));
