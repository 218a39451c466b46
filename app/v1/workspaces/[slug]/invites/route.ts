import { route } from '@/lib/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { createInviteLink, listInviteLinks } from '@/lib/workspaces/invite-links.ts';

export const GET = route(workspacesApi.listInvites, async ({ actor, params }) => listInviteLinks(actor, params.slug));
export const POST = route(workspacesApi.createInvite, async ({ actor, params, body }) => createInviteLink(actor, params.slug, body));
