import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { createWorkspace, listWorkspaces } from '@/lib/workspaces/workspaces.ts';

export const GET = route(workspacesApi.list, async ({ caller }) => listWorkspaces(caller));
export const POST = route(workspacesApi.create, async ({ caller, body }) => createWorkspace(caller, body));
