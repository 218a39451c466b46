import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { inviteMember } from '@/lib/workspaces/members.ts';

export const POST = route(workspacesApi.invite, async ({ caller, params, body }) => inviteMember(caller, params.slug, body));
