import { auditLog } from '@/lib/audit/log.ts';
import { route } from '@/server/http/route.ts';
import { workspacesApi } from '@/lib/schemas/workspaces.ts';

export const GET = route(workspacesApi.audit, async ({ caller, params, query }) => auditLog(caller, params.slug, query));
