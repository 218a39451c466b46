import { createComment, listThreads } from '@/lib/comments/comments.ts';
import { route } from '@/server/http/route.ts';
import { commentsApi } from '@/lib/schemas/comments.ts';

export const GET = route(commentsApi.list, async ({ caller, params, query }) => listThreads(caller, params.id, query));
export const POST = route(commentsApi.create, async ({ caller, params, body }) => createComment(caller, params.id, body));
