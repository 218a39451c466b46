import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { changeMemberRole, removeMember } from '@/lib/workspaces/members.ts';

export const PATCH = route(workspacesApi.changeRole, async ({ caller, params, body }) => changeMemberRole(caller, params.slug, params.handle, body.role));
export const DELETE = route(workspacesApi.removeMember, async ({ caller, params, body }) => removeMember(caller, params.slug, params.handle, body));
