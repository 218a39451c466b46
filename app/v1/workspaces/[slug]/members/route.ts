import { route } from '@/lib/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { inviteMember } from '@/lib/workspaces/members.ts';

export const POST = route(workspacesApi.invite, async ({ actor, params, body }) => inviteMember(actor, params.slug, body));
