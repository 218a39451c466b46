import { commentRevisions } from '@/lib/comments/comments.ts';
import { route } from '@/server/http/route.ts';
import { commentsApi } from '@/lib/schemas/comments.ts';

export const GET = route(commentsApi.revisions, async ({ caller, params }) => commentRevisions(caller, params.id));
