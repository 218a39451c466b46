import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { revokeInviteLink } from '@/lib/workspaces/invite-links.ts';

export const DELETE = route(workspacesApi.revokeInvite, async ({ caller, params }) => revokeInviteLink(caller, params.slug, params.id));
