import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { createInviteLink, listInviteLinks } from '@/lib/workspaces/invite-links.ts';

export const GET = route(workspacesApi.listInvites, async ({ caller, params }) => listInviteLinks(caller, params.slug));
export const POST = route(workspacesApi.createInvite, async ({ caller, params, body }) => createInviteLink(caller, params.slug, body));
