import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { acceptInviteLink } from '@/lib/workspaces/invite-links.ts';

export const POST = route(workspacesApi.acceptInvite, async ({ caller, body }) => acceptInviteLink(caller, body.token));
