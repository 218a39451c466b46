import { deleteComment, editComment } from '@/lib/comments/comments.ts';
import { route } from '@/server/http/route.ts';
import { commentsApi } from '@/lib/schemas/comments.ts';

export const PATCH = route(commentsApi.edit, async ({ caller, params, body }) => editComment(caller, params.id, body));
export const DELETE = route(commentsApi.delete, async ({ caller, params, body }) => deleteComment(caller, params.id, body.guest));
