import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { declineInvitation } from '@/lib/workspaces/members.ts';

export const POST = route(workspacesApi.decline, async ({ caller, params }) => declineInvitation(caller, params.slug));
