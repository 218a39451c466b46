import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { previewInviteLink } from '@/lib/workspaces/invite-links.ts';

export const POST = route(workspacesApi.previewInvite, async ({ caller, body }) => previewInviteLink(caller, body.token));
