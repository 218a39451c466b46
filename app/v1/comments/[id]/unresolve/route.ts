import { setResolved } from '@/lib/comments/comments.ts';
import { route } from '@/server/http/route.ts';
import { commentsApi } from '@/lib/schemas/comments.ts';

export const POST = route(commentsApi.unresolve, async ({ caller, params }) => setResolved(caller, params.id, false));
