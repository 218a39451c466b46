import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';
import { acceptInvitation } from '@/lib/workspaces/members.ts';

export const POST = route(workspacesApi.accept, async ({ caller, params }) => acceptInvitation(caller, params.slug));
